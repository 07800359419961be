/**
 * schema.json, the package schema the plugin serves (GetSchema) and ships: valid against Pulumi's own
 * metaschema (what the engine's schema binder checks) and the Node SDK's schema types, and the same
 * surface as the code: the tokens the plugin serves, the config keys the provider reads (secrets
 * marked, environment fallbacks named), the inputs the providers' check accepts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { AUTHORIZATION_KEYS, CREDENTIAL_KEYS } from "../../config/credentials";
import { ENV_KEYS } from "../../config/stack-config";
import { checkGroupRolesInputs } from "../../provider/group-roles/check";
import { PROVIDER_KEYS } from "../../provider/plugin/config";
import { SERVED_TOKENS } from "../../provider/plugin/served-tokens";
import { checkRoleInputs } from "../../provider/role/inputs";
import { SECRET_KEYS } from "../../sdk/package/provider";

const root = path.resolve(__dirname, "../..");
type Props = Record<
  string,
  { type?: string; secret?: boolean; description?: string; defaultInfo?: { environment: string[] } }
>;
interface Schema {
  name: string;
  config: { variables: Props };
  provider: { inputProperties: Props };
  resources: Record<string, { inputProperties: Props; properties: Props; description: string }>;
  types: Record<string, { properties: Props }>;
  functions: Record<string, { description: string; inputs: { properties: Props }; outputs: { properties: Props } }>;
}
const text = readFileSync(path.join(root, "schema.json"), "utf8");
const schema = JSON.parse(text) as Schema;

describe("schema.json", () => {
  it("is valid against Pulumi's package metaschema (pkg/codegen/schema/pulumi.json)", () => {
    const meta = JSON.parse(readFileSync(path.join(root, "test/fixtures/pulumi-package-metaschema.json"), "utf8"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(meta);
    expect(validate(schema), JSON.stringify(validate.errors, null, 1)).toBe(true);
    // The metaschema catches what it should: a property type it does not know.
    const broken = structuredClone(schema);
    broken.resources["grouproles:index:Role"]!.inputProperties.name!.type = "text";
    expect(validate(broken)).toBe(false);
  });

  it("type-checks as the Node SDK's PackageSpec (provider/experimental/schema), extensions aside", () => {
    // The SDK's types model name, resources and types (with properties, required, inputs); secret,
    // default, defaultInfo and willReplaceOnChanges are schema features it does not type, so they are
    // left out here (the metaschema above checks them).
    const EXTENSIONS = new Set(["secret", "default", "defaultInfo", "willReplaceOnChanges"]);
    const strip = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(strip)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .filter(([k]) => !EXTENSIONS.has(k))
                .map(([k, x]) => [k, strip(x)]),
            )
          : v;
    const { name, description, resources, types, language } = schema as unknown as Record<string, unknown>;
    const spec = strip({ name, description, resources, types, language });
    const source = [
      'import type { PackageSpec } from "@pulumi/pulumi/provider/experimental/schema";',
      `export const spec = ${JSON.stringify(spec, null, 1)} satisfies PackageSpec;`,
    ].join("\n");
    const file = path.join(root, "test/provider/__schema-check__.ts");
    const host = ts.createCompilerHost({});
    const read = host.readFile.bind(host);
    host.readFile = (f) => (path.resolve(f) === file ? source : read(f));
    const exists = host.fileExists.bind(host);
    host.fileExists = (f) => path.resolve(f) === file || exists(f);
    const program = ts.createProgram(
      [file],
      {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.Node16,
        moduleResolution: ts.ModuleResolutionKind.Node16,
        target: ts.ScriptTarget.ES2022,
        skipLibCheck: true,
        types: [],
      },
      host,
    );
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  });

  it("lists exactly the resource and function tokens the plugin serves", () => {
    expect(Object.keys(schema.resources).sort()).toEqual([...SERVED_TOKENS.resources].sort());
    expect(Object.keys(schema.functions).sort()).toEqual([...SERVED_TOKENS.functions].sort());
    expect(schema.name).toBe("grouproles");
  });

  it("config and provider inputs: every key the provider reads, secrets marked, environment fallbacks named", () => {
    for (const props of [schema.config.variables, schema.provider.inputProperties]) {
      expect(Object.keys(props).sort()).toEqual([...PROVIDER_KEYS].sort());
      const secrets = Object.entries(props)
        .filter(([, p]) => p.secret)
        .map(([k]) => k);
      expect(secrets.sort()).toEqual([...SECRET_KEYS].sort());
      const env: Record<string, string> = {
        ...ENV_KEYS,
        ...Object.fromEntries(
          Object.entries({ ...CREDENTIAL_KEYS, ...AUTHORIZATION_KEYS }).map(([k, [, v]]) => [k, v]),
        ),
      };
      for (const [k, p] of Object.entries(props)) {
        // A provider input that is a map has no SDK-side environment default: Pulumi's Go generator
        // writes `pulumi.StringMap(d.(string))` for one, which does not compile (pkg/v3 v3.274.1
        // codegen/go), and the plugin reads the variable itself (config/credentials.ts).
        const sdkDefault = props === schema.provider.inputProperties && p.type === "object" ? undefined : [env[k]];
        expect(p.defaultInfo?.environment, k).toEqual(sdkDefault);
        expect(p.description, k).toMatch(/\S/);
      }
    }
  });

  it("every resource, property, type and function has a description", () => {
    const described = (where: string, props: Props) => {
      for (const [k, p] of Object.entries(props)) expect(p.description, `${where}.${k}`).toMatch(/\S/);
    };
    for (const [tok, r] of Object.entries(schema.resources)) {
      expect(r.description, tok).toMatch(/\S/);
      described(`${tok} inputs`, r.inputProperties);
      described(`${tok} outputs`, r.properties);
    }
    for (const [tok, t] of Object.entries(schema.types)) described(tok, t.properties);
    for (const [tok, f] of Object.entries(schema.functions)) {
      expect(f.description, tok).toMatch(/\S/);
      described(`${tok} inputs`, f.inputs.properties);
      described(`${tok} outputs`, f.outputs.properties);
    }
  });

  it("the inputs it lists are the ones the providers' check accepts, and no others", () => {
    const valid: Record<string, Record<string, unknown>> = {
      "grouproles:index:Role": { groupId: 42, name: "Support", description: "d", settings: { viewVideo: true } },
      "grouproles:index:GroupRoles": {
        groupId: 42,
        roles: { support: { name: "Support", description: "d", settings: { viewVideo: true }, retain: true } },
        adoptExisting: true,
        exclusive: true,
      },
    };
    const check = (tok: string, news: Record<string, unknown>) =>
      tok === "grouproles:index:Role" ? checkRoleInputs(news) : checkGroupRolesInputs(news);
    for (const [tok, r] of Object.entries(schema.resources)) {
      const inputs = valid[tok]!;
      expect(Object.keys(inputs).sort(), tok).toEqual(Object.keys(r.inputProperties).sort());
      expect(check(tok, inputs), tok).toEqual([]);
      expect(
        check(tok, { ...inputs, colour: "red" }).map((f) => f.property),
        tok,
      ).toContain("colour");
    }
    const entry = schema.types["grouproles:index:GroupRoleEntry"]!.properties;
    const declared = valid["grouproles:index:GroupRoles"]!.roles as Record<string, object>;
    expect(Object.keys(entry).sort()).toEqual(Object.keys(declared.support!).sort());
  });
});
