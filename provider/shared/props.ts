/**
 * Property values as Pulumi passes them to a provider (inputs, state, outputs), before a resource's own
 * parse types them (../role/inputs, ../group-roles/types): one name for every file that handles them.
 */
export type Props = Record<string, unknown>;
