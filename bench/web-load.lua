-- wrk: rotate over the web UI's data requests (bench/web.sh's load test).
local paths = {
  "/api/flame?width=1200",
  "/api/top",
  "/ui/flamegraph",
  "/static/app.js",
  "/api/flame?width=1200&root=1",
  "/api/top?si=samples",
  "/api/flame?width=1200&f=runtime",
}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
