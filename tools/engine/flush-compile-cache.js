// TEST INFRASTRUCTURE (engine stand-in): preloaded (`node --require`) into every provider host the
// stand-in starts, beside ./large-trailers.js.
//
// Node writes its compile cache (NODE_COMPILE_CACHE, set by ./child-env.ts) when a process exits, but
// the stand-in stops provider hosts with SIGKILL, as the engine does, so nothing would ever be written
// and every host would compile `@pulumi/pulumi` again (0.4 s of its 1.3 s of CPU). So after each burst
// of module loading (the host's start, and the dynamic provider's code loaded by its first call) the
// cache is written once the burst is over. It changes nothing the host does.
"use strict";
const Module = require("node:module");

if (typeof Module.flushCompileCache === "function") {
  let pending = false;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileThenFlushSoon(...args) {
    if (!pending) {
      pending = true;
      setImmediate(() => {
        pending = false;
        Module.flushCompileCache();
      });
    }
    return compile.apply(this, args);
  };
}
