/**
 * The Lua script wrk runs for every load: the bench writes it into its temp
 * directory (writeWrkScript) and passes it the request files as arguments.
 *
 * Arguments (after wrk's `--`): PATHS_FILE PICK KEYS SEED [EXPONENT [ACCEPT_ENCODING [IF_NONE_MATCH]]]
 * - PATHS_FILE: request paths, one a line; a line `PATH<TAB>BODY` is a POST
 *   of that JSON body (its head and body prepared once, in init).
 * - PICK: `uniform` (any line, equally likely), `zipf` (line r with a
 *   probability ∝ 1/r^EXPONENT: the bench writes the lines in the order of
 *   their rank) or `cycle` (the lines in turn).
 * - KEYS: a file of API keys taken in turn, or `random` for well-formed
 *   unknown keys (the 401 path): 65 536 of them made in init and taken in
 *   turn, so none is still in the server's key cache (10 000) when it returns.
 * - SEED: the random sequence; the same seed gives the same requests, so a
 *   baseline answers exactly what its scenario was asked.
 * - ACCEPT_ENCODING, IF_NONE_MATCH: values of those headers on every request;
 *   `-` (the default) sends no such header.
 *
 * Each request is one string concatenation of ready parts (the path and a
 * prebuilt header block), so the generator spends as little as it can per
 * request. done() prints one line `WRK_JSON {...}`: counts, latency
 * percentiles in µs, the statuses (when counted) and wrk's own CPU time from
 * the end of its set-up to the end of the run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = String.raw`
local threads = {}
local paths, n, pick, cdf, suffixes, nkeys, host, turn, posts, postSuffixes
local randomKeys = false
local RANDOM_KEYS = 65536
local alphabet = {}
do
  local chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
  for i = 1, #chars do alphabet[i] = chars:sub(i, i) end
end

local function cpuTicks()
  local f = io.open("/proc/self/stat", "r")
  if not f then return 0 end
  local stat = f:read("*a")
  f:close()
  local rest = stat:sub(stat:find(")", 1, true) + 2)
  local fields = {}
  for field in rest:gmatch("%S+") do fields[#fields + 1] = field end
  return tonumber(fields[12]) + tonumber(fields[13])
end

function setup(thread)
  threads[#threads + 1] = thread
  thread:set("tid", #threads)
end

local function lines(file)
  local t = {}
  for line in io.lines(file) do t[#t + 1] = line end
  return t
end

function init(args)
  paths = lines(args[1])
  n = #paths
  posts = {}
  for i, line in ipairs(paths) do
    local tab = line:find("\t", 1, true)
    if tab then
      local body = line:sub(tab + 1)
      paths[i] = line:sub(1, tab - 1)
      posts[i] = "\r\nContent-Type: application/json\r\nContent-Length: " .. #body .. "\r\n\r\n" .. body
    end
  end
  pick = args[2]
  turn = 0
  math.randomseed(tonumber(args[4]) * 7919 + (tid or 1))
  host = "Host: " .. wrk.host .. ":" .. wrk.port .. "\r\n"
  -- Extra header lines ride with the Host line, in every request form below.
  if args[6] and args[6] ~= "-" then host = host .. "Accept-Encoding: " .. args[6] .. "\r\n" end
  if args[7] and args[7] ~= "-" then host = host .. "If-None-Match: " .. args[7] .. "\r\n" end
  if args[3] == "random" then
    -- Unknown keys made once: built per request, their strings made wrk's own GC pause the load
    -- (L0's p99 rose to 110 ms in the 401 scenario). More of them than the server's key cache holds
    -- (10 000), taken in turn, so a key comes back only long after that cache has let it go.
    randomKeys = {}
    for k = 1, RANDOM_KEYS do
      local key = {}
      for i = 1, 32 do key[i] = alphabet[math.random(62)] end
      randomKeys[k] = " HTTP/1.1\r\n" .. host .. "Authorization: Bearer svc_live_" .. table.concat(key) .. "\r\n\r\n"
    end
  else
    suffixes = {}
    postSuffixes = {}
    for i, key in ipairs(lines(args[3])) do
      suffixes[i] = " HTTP/1.1\r\n" .. host .. "Authorization: Bearer " .. key .. "\r\n\r\n"
      postSuffixes[i] = " HTTP/1.1\r\n" .. host .. "Authorization: Bearer " .. key
    end
    nkeys = #suffixes
  end
  if pick == "zipf" then
    local s = tonumber(args[5] or "1")
    cdf = {}
    local sum = 0
    for r = 1, n do
      sum = sum + r ^ (-s)
      cdf[r] = sum
    end
    for r = 1, n do cdf[r] = cdf[r] / sum end
  end
  statuses = {}
  cpuReady = cpuTicks()
end

local function nextLine()
  if pick == "uniform" then return math.random(n) end
  if pick == "zipf" then
    local u = math.random()
    local lo, hi = 1, n
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if cdf[mid] < u then lo = mid + 1 else hi = mid end
    end
    return lo
  end
  return (turn % n) + 1
end

function request()
  -- wrk calls request() once on its main state, without init(), to check it.
  if not paths then return wrk.format("GET", "/") end
  local line = nextLine()
  local path = paths[line]
  turn = turn + 1
  if randomKeys then return "GET " .. path .. randomKeys[(turn % RANDOM_KEYS) + 1] end
  local post = posts[line]
  if post then return "POST " .. path .. postSuffixes[(turn % nkeys) + 1] .. post end
  return "GET " .. path .. suffixes[(turn % nkeys) + 1]
end

--RESPONSE--

function done(summary, latency, requests)
  local counted, ready = {}, 0
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    if type(s) == "table" then
      for status, count in pairs(s) do counted[status] = (counted[status] or 0) + count end
    end
    ready = math.max(ready, thread:get("cpuReady") or 0)
  end
  local parts = {}
  for status, count in pairs(counted) do parts[#parts + 1] = string.format('"%d":%d', status, count) end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,' ..
    '"p50":%d,"p90":%d,"p99":%d,"max":%d,"cpuTicks":%d,"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    cpuTicks() - ready, table.concat(parts, ",")))
end
`;

/** Counting statuses makes wrk parse every response's headers: only the runs that expect a non-2xx pay for it. */
const RESPONSE = `
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
`;

export interface WrkScripts {
  /** Statuses not counted: wrk's own count of responses ≥ 400 tells the unexpected ones. */
  plain: string;
  /** Every status counted. */
  counting: string;
}

export function writeWrkScripts(dir: string): WrkScripts {
  const plain = join(dir, 'requests.lua');
  const counting = join(dir, 'requests-statuses.lua');
  writeFileSync(plain, SCRIPT.replace('--RESPONSE--', ''));
  writeFileSync(counting, SCRIPT.replace('--RESPONSE--', RESPONSE));
  return { plain, counting };
}
