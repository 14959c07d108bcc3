-- wrk2 script: PUT or GET /v0/entity of random keys k0..k<KEYSPACE-1> (the keys that
-- `loadgen --workload fill` writes), at ack/from, with VALUE_SIZE-byte values.
-- Env: OP=put|get KEYSPACE=100000 VALUE_SIZE=100 ACK=2 FROM=3. Each wrk2 thread seeds its own
-- random generator (setup numbers the threads).
local keyspace = tonumber(os.getenv("KEYSPACE") or "100000")
local tail = "&ack=" .. (os.getenv("ACK") or "2") .. "&from=" .. (os.getenv("FROM") or "3")
local put = (os.getenv("OP") or "put") == "put"

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + (id or 0))
  if put then
    wrk.method = "PUT"
    wrk.body = string.rep("v", tonumber(os.getenv("VALUE_SIZE") or "100"))
  else
    wrk.method = "GET"
    wrk.body = nil
  end
end

function request()
  return wrk.format(nil, "/v0/entity?id=k" .. math.random(0, keyspace - 1) .. tail)
end

-- STATUSES=1: count the answers that are not 2xx, by status, and print them at the end (each
-- thread keeps its counts as text: wrk2 copies strings between threads faithfully)
if os.getenv("STATUSES") then
  local all = {}
  local numbered = setup
  function setup(thread)
    numbered(thread)
    table.insert(all, thread)
  end
  local counts = {}
  non2xx = ""
  function response(status, headers, body)
    if status >= 300 then
      counts[status] = (counts[status] or 0) + 1
      local text = ""
      for s, n in pairs(counts) do
        text = text .. string.format("status %d: %d answers\n", s, n)
      end
      non2xx = text
    end
  end
  function done(summary, latency, requests)
    for _, thread in ipairs(all) do
      io.write(thread:get("non2xx") or "")
    end
  end
end
