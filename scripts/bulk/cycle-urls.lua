-- wrk's script for the server benchmarks: cycles through the URLs of the list file given
-- after `--` (each URL's scheme and host dropped: wrk sends them to the host it was given).
local urls = {}
local index = 0
init = function(args)
    for line in io.lines(args[1]) do urls[#urls + 1] = line:gsub("^http://[^/]+", "") end
end
request = function()
    index = index % #urls + 1
    return wrk.format("GET", urls[index])
end
