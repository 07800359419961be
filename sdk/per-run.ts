import * as pulumi from "@pulumi/pulumi";

/**
 * State that belongs to one run of the program, not to its process.
 *
 * The Pulumi CLI runs a program in a process of its own, but an Automation API inline program runs in
 * the caller's process, once per `preview`, `up` or `refresh` (a preview then an up is the common
 * case), and each run gets its own root stack resource. Module state keyed by nothing would carry one
 * run's declarations into the next, and the second run would see every role "declared twice". So the
 * state is kept per root stack resource; outside a run (unit tests with mocks) one instance serves all.
 */
export function perRun<T extends object>(make: () => T): () => T {
  const byRun = new WeakMap<object, T>();
  let outsideRun: T | undefined;
  return () => {
    const stack = pulumi.runtime.getStackResource();
    if (stack === undefined) {
      outsideRun ??= make();
      return outsideRun;
    }
    let state = byRun.get(stack);
    if (state === undefined) {
      state = make();
      byRun.set(stack, state);
    }
    return state;
  };
}
