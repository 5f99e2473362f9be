import ArgumentParser
import WebImage

extension TerminalGraphics: ExpressibleByArgument {}
