/** Everything an error shows a user or a log: message, stack, JSON form and fields, down its `cause` chain. */
export function allText(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  while (e instanceof Error) {
    parts.push(String(e), e.message, e.stack ?? "", JSON.stringify(e), JSON.stringify(Object.entries(e)));
    e = e.cause;
  }
  return parts.join("\n");
}
