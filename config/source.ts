/** Where settings come from: anything with `get(key)`, like the `config` of Pulumi's `ConfigureRequest`. */
export interface ConfigSource {
  get(key: string): string | undefined;
  /**
   * Every key it holds (`grouproles:baseUrl`, ...), when it can list them: what lets a check refuse a
   * key no setting has (a typo such as `grouproles:baseURL`). Sources that cannot list leave it out.
   */
  keys?(): readonly string[];
}
