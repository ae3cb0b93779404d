-- wrk script for bench/festival.py: print the figures the benchmark parses (latency in ms).
done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format("FESTIVAL requests=%d seconds=%.3f rps=%.1f p50=%.2f p95=%.2f p99=%.2f errors=%d non2xx=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
