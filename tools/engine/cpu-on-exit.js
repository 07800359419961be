// TEST INFRASTRUCTURE (engine stand-in): preloaded into a program process (`cmd/run`) when
// GROUPROLES_CPU_LOG is set (./process-cpu.ts): records the process's CPU seconds when it exits.
"use strict";
const { appendFileSync } = require("node:fs");

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  const line = { kind: "program", file: process.env.GROUPROLES_CPU_FILE || "", cpu: (user + system) / 1e6 };
  try {
    appendFileSync(process.env.GROUPROLES_CPU_LOG, `${JSON.stringify(line)}\n`);
  } catch {
    // Nothing to record into.
  }
});
