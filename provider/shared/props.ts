/**
 * Property values as Pulumi passes them to a provider (inputs, state, outputs), before a resource's own
 * parse types them (../role/inputs, ../group-roles/types): one name for every file that handles them.
 */
export type Props = Record<string, unknown>;

/**
 * A resource's properties as Pulumi hands them to its provider, typed at the boundary: the resource's
 * fields by name, each value unchecked (unknown in a preview, absent, or written by an older version),
 * with the internal inputs the SDKs add (`__provider`, `__structure`: ./structure). A method parses them
 * once where it starts (../role/inputs `toRoleInputs`, ../group-roles/types `toInputs`, `toState`); a
 * misspelt property is a type error here, where `Props` would read it as absent.
 */
export type Unchecked<T> = { [K in keyof T]?: unknown } & { __provider?: unknown; __structure?: unknown };
