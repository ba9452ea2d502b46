// Chromium's renderer processes as /proc shows them (benchmarks only, Linux).
// A page and its workers (the app's worker and its helpers) live in one
// renderer process, so its resident memory is theirs.
import { readFileSync, readdirSync } from "node:fs";

/** Chromium's renderer processes started by this node process: { pid, rss, peak } in bytes. */
export function renderers() {
  const parent = new Map();
  const command = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      command.set(Number(name), readFileSync(`/proc/${name}/cmdline`, "utf8"));
    } catch {
      // The process ended meanwhile.
    }
  }
  const ours = (pid) => {
    for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === process.pid) return true;
    return false;
  };
  const found = [];
  for (const [pid, cmd] of command) {
    if (!cmd.includes("--type=renderer") || !ours(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kib = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? NaN) * 1024;
      // VmHWM: the most the process has held resident since it started.
      found.push({ pid, rss: kib("VmRSS"), peak: kib("VmHWM") });
    } catch {
      // Gone.
    }
  }
  return found;
}

/** The highest peak resident memory among our renderers, in bytes (a page's, read before its context closes). */
export const peakRendererMemory = () => Math.max(0, ...renderers().map((r) => r.peak));
