/** Where settings come from: anything with `get(key)`, like the `config` of Pulumi's `ConfigureRequest`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}
