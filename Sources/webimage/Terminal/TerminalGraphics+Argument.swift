import ArgumentParser
import WebImage
import WebImageTerminal

extension TerminalGraphics: ExpressibleByArgument {}
