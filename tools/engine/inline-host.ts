// TEST INFRASTRUCTURE (engine stand-in): programs run as Automation API inline programs.
//
// With the CLI, each operation starts the language host, which starts `node cmd/run` for the program:
// one new process per operation, most of whose second of CPU goes to loading @pulumi/pulumi. The
// Automation API runs an inline program instead in the caller's process, through Pulumi's own
// LanguageServer: the engine calls its `Run` once per operation, and the packages stay loaded between
// runs. An `InlineProgramHost` is one such process (./inline-language-host.js), kept across the runs of
// a test file; `runEngine({ inlineHost })` calls `Run` on it as the engine does. The provider
// processes are still started fresh for every operation, as the engine starts them.
//
// After a failed step the engine stops waiting for the program. A run whose program awaits nothing of
// the failed resources still returns (as `cmd/run` exits), and its process serves the next run; one
// that waits for them (a stack output of a failed resource) never returns: the stand-in gives it up
// and replaces the process (the next one starts at once, in the background), so that what is left of
// it (its pending work and log queue, the uncaught-error handlers LanguageServer.run installed for it)
// cannot reach the next run.

import * as grpc from "@grpc/grpc-js";
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import * as langrpc from "@pulumi/pulumi/proto/language_grpc_pb";
import * as langproto from "@pulumi/pulumi/proto/language_pb";
import { cleanEnv } from "./child-env";
import { recordChildCpu } from "./process-cpu";

export interface InlineRunRequest {
  project: string;
  stack: string;
  /** The program directory: the run's working directory. */
  pwd: string;
  /** Entry, relative to `pwd` (a file, or a directory with package.json `main` / index.js). */
  program: string;
  /** The address of the stand-in's monitor, which also serves the Engine service. */
  monitorAddress: string;
  dryRun: boolean;
  parallel: number;
  config: Record<string, string>;
  secretKeys: string[];
}

export interface InlineRunResult {
  /** The run's error as Run returned it (a program exception, leaked promises, "One or more errors..."). */
  error?: string;
  /** True when the run was given up (a failed step, or the timeout) before it returned. */
  abandoned: boolean;
  /** What the host process printed during the run. */
  stdout: string;
  stderr: string;
}

/** How long a run may take to return once the engine has stopped waiting for it. */
const RETURN_AFTER_STOP_MS = 1_000;

interface Running {
  child: ChildProcess;
  client: langrpc.LanguageRuntimeClient;
  exited: Promise<void>;
}

/** A persistent process that runs programs as inline programs, one run at a time. */
export class InlineProgramHost {
  private running?: Promise<Running>;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private stdout = "";
  private stderr = "";
  /** Processes started so far (tests read it: one, plus one per run given up). */
  starts = 0;

  /** @param pulumiDir The @pulumi/pulumi package the programs load (the host must use the same copy). */
  constructor(private readonly pulumiDir: string) {}

  /**
   * Runs one program; `abandon` resolves when the engine stops waiting for it. Runs queue: a host
   * serves one at a time, as the working directory and the program's module state are the process's.
   */
  run(req: InlineRunRequest, abandon: Promise<void>, timeoutMs: number): Promise<InlineRunResult> {
    const next = this.queue.then(() => this.runNow(req, abandon, timeoutMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Stops the process; a run queued or asked for afterwards fails. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async runNow(req: InlineRunRequest, abandon: Promise<void>, timeoutMs: number): Promise<InlineRunResult> {
    if (this.closed) throw new Error("the inline program host is closed");
    const { client } = await this.start();
    const out = this.stdout.length;
    const err = this.stderr.length;
    let call: grpc.ClientUnaryCall | undefined;
    const finished = new Promise<{ error?: string }>((resolve) => {
      call = client.run(runRequest(req), (e, resp) => {
        if (e) resolve({ error: e.details || e.message });
        else resolve(resp.getError() ? { error: resp.getError() } : {});
      });
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const givenUp = abandon.then(() =>
      Promise.race([finished, new Promise<"abandon">((r) => setTimeout(() => r("abandon"), RETURN_AFTER_STOP_MS))]),
    );
    const outcome = await Promise.race([finished, givenUp, timedOut]);
    clearTimeout(timer);
    const printed = () => ({ stdout: this.stdout.slice(out), stderr: this.stderr.slice(err) });
    if (typeof outcome === "object") return { ...outcome, abandoned: false, ...printed() };
    call?.cancel();
    const result = {
      ...(outcome === "timeout" ? { error: `the program did not finish within ${timeoutMs} ms` } : {}),
      abandoned: true,
      ...printed(),
    };
    await this.stop();
    // The next run is likely to come: its process loads while this run's test goes on.
    if (!this.closed) this.start().catch(() => undefined);
    return result;
  }

  private start(): Promise<Running> {
    if (this.running) return this.running;
    this.starts++;
    const child = spawn(process.execPath, [path.join(__dirname, "inline-language-host.js"), this.pulumiDir], {
      // The host exits when its stdin closes, so it never outlives the process that started it.
      stdio: ["pipe", "pipe", "pipe"],
      env: cleanEnv(),
    });
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    const running = new Promise<Running>((resolve, reject) => {
      let portLine: string | undefined;
      let head = "";
      child.stderr!.on("data", (b: Buffer) => (this.stderr += b.toString()));
      child.stdout!.on("data", (b: Buffer) => {
        if (portLine !== undefined) {
          this.stdout += b.toString();
          return;
        }
        head += b.toString();
        const nl = head.indexOf("\n");
        if (nl < 0) return;
        portLine = head.slice(0, nl).trim();
        this.stdout += head.slice(nl + 1);
        const client = new langrpc.LanguageRuntimeClient(`127.0.0.1:${portLine}`, grpc.credentials.createInsecure());
        resolve({ child, client, exited });
      });
      child.once("error", reject);
      child.once("exit", (code, signal) => {
        // A host that died is replaced by the next run; what it printed is in the runs' stderr.
        if (this.running === running) this.running = undefined;
        if (portLine === undefined)
          reject(new Error(`the inline program host exited (${code ?? signal}) before serving:\n${this.stderr}`));
      });
    });
    this.running = running;
    return running;
  }

  private async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    const { child, client, exited } = await running.catch(() => ({}) as Partial<Running>);
    client?.close();
    if (child && child.exitCode === null && child.signalCode === null) {
      recordChildCpu("inline program host", child.pid);
      child.kill("SIGKILL");
      await exited;
    }
  }
}

/** The RunRequest the engine sends a language runtime (source_eval.go). */
function runRequest(r: InlineRunRequest): langproto.RunRequest {
  const req = new langproto.RunRequest();
  req.setProject(r.project);
  req.setStack(r.stack);
  req.setPwd(r.pwd);
  req.setProgram(r.program);
  // The engine passes its own address as the first argument; the monitor serves the Engine service too.
  req.setArgsList([r.monitorAddress]);
  req.setMonitorAddress(r.monitorAddress);
  req.setDryrun(r.dryRun);
  req.setParallel(r.parallel);
  req.setOrganization("organization");
  for (const [k, v] of Object.entries(r.config)) req.getConfigMap().set(k, v);
  req.setConfigsecretkeysList(r.secretKeys);
  return req;
}
