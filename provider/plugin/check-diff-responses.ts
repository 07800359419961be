/**
 * The plugin's CheckResponse and DiffResponse: the answers to the resources' Check and Diff, and to the
 * provider's own CheckConfig and DiffConfig.
 */
const provpb = require("@pulumi/pulumi/proto/provider_pb") as typeof import("@pulumi/pulumi/proto/provider_pb");

/** A CheckResponse with `failures`; its inputs are the caller's to set (Check's go lean, ./lean-wire). */
export function checkResponse(failures: ReadonlyArray<{ property: string; reason: string }>) {
  const res = new provpb.CheckResponse();
  res.setFailuresList(
    failures.map((f) => {
      const failure = new provpb.CheckFailure();
      failure.setProperty(f.property);
      failure.setReason(f.reason);
      return failure;
    }),
  );
  return res;
}

/** Pulumi's PropertyDiff kinds for what a GroupRoles diff says happens to an entry. */
const PROPERTY_DIFF = {
  add: provpb.PropertyDiff.Kind.ADD,
  delete: provpb.PropertyDiff.Kind.DELETE,
  update: provpb.PropertyDiff.Kind.UPDATE,
} as const;

/** A DiffResponse saying what a diff found: whether anything changed, what is replaced, and how. */
export function diffResponse(d: {
  changes?: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  diffs?: string[];
  detailedDiff?: Record<string, keyof typeof PROPERTY_DIFF>;
}) {
  const res = new provpb.DiffResponse();
  // The changed keys (matched by `replaceOnChanges`) and, where known, what happens to each entry (shown).
  res.setDiffsList(d.diffs ?? []);
  if (d.detailedDiff) {
    res.setHasdetaileddiff(true);
    const map = res.getDetaileddiffMap();
    for (const [path, kind] of Object.entries(d.detailedDiff)) {
      const diff = new provpb.PropertyDiff();
      diff.setKind(PROPERTY_DIFF[kind]);
      diff.setInputdiff(true);
      map.set(path, diff);
    }
  }
  res.setChanges(
    d.changes === true
      ? provpb.DiffResponse.DiffChanges.DIFF_SOME
      : d.changes === false
        ? provpb.DiffResponse.DiffChanges.DIFF_NONE
        : provpb.DiffResponse.DiffChanges.DIFF_UNKNOWN,
  );
  res.setReplacesList(d.replaces ?? []);
  res.setDeletebeforereplace(d.deleteBeforeReplace ?? false);
  return res;
}
