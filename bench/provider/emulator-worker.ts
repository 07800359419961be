/**
 * The emulator of the in-process benchmarks (bench:provider, bench:role-provider) in a worker thread
 * (./emulator-thread), so that the main thread's CPU time is the provider's and its client's, and the
 * admin calls the benchmarks make.
 */
import { request } from "node:http";
import * as path from "node:path";
import { Worker } from "node:worker_threads";

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The emulator in its worker thread, and what the benchmark asks it. */
export async function startEmulatorThread() {
  const worker = new Worker(path.join(__dirname, "emulator-thread.js"));
  const nextMessage = <T>() => new Promise<T>((resolve) => worker.once("message", resolve));
  const ready = await nextMessage<{ baseUrl: string; token: string }>();
  // A connection per call: the provider's longest operations block this thread for longer than the
  // emulator keeps an idle connection, and a reused one that it closed meanwhile fails.
  const admin = (method: string, route: string) =>
    new Promise<{ total: number }>((resolve, reject) => {
      const headers = { authorization: `Bearer ${ready.token}` };
      const req = request(`${ready.baseUrl}/_emulator${route}`, { method, headers, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () =>
          (res.statusCode ?? 500) < 300
            ? resolve(JSON.parse(body) as { total: number })
            : reject(new Error(`emulator ${method} ${route}: ${res.statusCode}`)),
        );
      });
      req.on("error", reject);
      req.end();
    });
  return {
    ...ready,
    cpuMs: async () => {
      const reply = nextMessage<{ cpuMs: number }>();
      worker.postMessage("cpu");
      return (await reply).cpuMs;
    },
    requests: async () => (await admin("GET", "/requests")).total,
    reset: () => admin("POST", "/reset"),
    heapMiB: async () => mib((await worker.getHeapStatistics()).used_heap_size),
    close: async () => {
      worker.postMessage("close");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}
