/**
 * The provider benchmark's emulator: `startEmulator` on port 0 in a worker thread of the benchmark's
 * process, so that the provider's CPU (the main thread's) and the emulator's (this thread's) are
 * measured apart, and the emulator's heap is not the provider's. Answers "cpu" with this thread's CPU
 * time in ms, and "close" by closing.
 */
import { parentPort } from "node:worker_threads";
import { startEmulator } from "../../emulator";

const port = parentPort!;
void startEmulator({ port: 0, presenceServers: 1 }).then((emu) => {
  port.on("message", (message: string) => {
    if (message === "cpu") {
      const { user, system } = process.threadCpuUsage();
      port.postMessage({ cpuMs: (user + system) / 1000 });
    } else if (message === "close") {
      void emu.close().then(() => port.close());
    }
  });
  port.postMessage({ baseUrl: emu.baseUrl, token: emu.token });
});
