-- Valid creates with ids unique per run: each thread counts from its own base.
-- Arguments: <token> <base id>
local threads = {}
local next_thread = 0

function setup(thread)
  thread:set("thread_index", next_thread)
  next_thread = next_thread + 1
  table.insert(threads, thread)
end

function init(args)
  token = args[1]
  base = tonumber(args[2]) + thread_index * 100000000
  counter = 0
  headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
end

function request()
  counter = counter + 1
  local body = '{"id":' .. string.format("%d", base + counter) .. ',"name":"Monstera","tag":"tropical"}'
  return wrk.format("POST", "/plants", headers, body)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), errors.status,
    errors.connect + errors.read + errors.write + errors.timeout))
end
