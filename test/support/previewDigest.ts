/**
 * `pulumi preview --json` documents (PreviewDigest) kept as fixtures for the review tools
 * (test/fixtures/previewJson/): what changes from run to run or machine to machine is masked.
 */
/**
 * A PreviewDigest without what changes from run to run or machine to machine: ids, the emulator's
 * URL, timestamps, source positions; the serialized provider shortened to its size.
 */
export function portableDigest(digest: any, emulatorUrl: string): any {
  const portable = portableValue(digest, emulatorUrl);
  // The engine warns that the plugin on PATH (the lane's tracing wrapper) is not the one next to the
  // CLI: a test artefact, with machine paths.
  portable.diagnostics = (portable.diagnostics ?? []).filter(
    (d: any) => !/pulumi-resource-pulumi-nodejs from \$PATH/.test(d.message),
  );
  return portable;
}

/** Any recorded document (a preview, a stack export) with what `portableDigest` masks masked. */
function portableValue(value: any, emulatorUrl: string): any {
  const text = JSON.stringify(value, (key, value) => {
    if (["sourcePosition", "stackTrace", "created", "modified", "timestamp"].includes(key)) return undefined;
    if (key === "__provider" && typeof value === "string")
      return `<serialized provider, ${value.length} chars>`;
    if (key === "durationSeconds" || key === "duration") return undefined;
    return value;
  });
  return JSON.parse(
    text
      .split(emulatorUrl)
      .join("<emulator>")
      .replace(/01[0-9A-HJKMNP-TV-Z]{24}/g, "<id>")
      .replace(/v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=:]+/g, "<ciphertext>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>"),
  );
}

const ULID = /01[0-9A-HJKMNP-TV-Z]{24}/g;

/**
 * `portableDigest` for a fixture a reader follows by id (an escalation path's targets, a route's
 * escalation path): each resource's id becomes `<id of KIND NAME>`, every other id
 * (users found by lookups) `<id N>` in order of appearance; steps in URN order and dependency lists
 * sorted (the engine's event order and the order it learns dependencies in vary with timing, the
 * plan does not).
 */
export function namedIdDigest(digest: any, emulatorUrl: string): any {
  return namedIdRecording(digest, undefined, emulatorUrl).preview;
}

/**
 * `namedIdDigest` of a preview document and of `pulumi stack export` of the stack it was planned
 * against (before the change), masked together: an id is named alike in both, the export's
 * resources naming theirs as the steps do (an object the plan leaves as is is in the export only).
 * The export is kept as `--state` reads it: `version` and the resources (in URN order).
 */
export function namedIdRecording(
  digest: any,
  exported: any,
  emulatorUrl: string,
): { preview: any; state?: any } {
  const names = new Map<string, string>();
  // In URN order, as the steps: the engine keeps resources made at once in the order they finished.
  const resources: any[] = [...(exported?.deployment?.resources ?? [])].sort((a, b) =>
    String(a.urn).localeCompare(String(b.urn)),
  );
  for (const { urn, id } of [
    ...(digest.steps ?? []).map((s: any) => ({ urn: s.urn, id: s.oldState?.id ?? s.newState?.id })),
    ...resources,
  ]) {
    if (typeof id === "string" && id !== "" && !names.has(id))
      names.set(id, `<id of ${kindAndName(String(urn))}>`);
  }
  let others = 0;
  const sortedDependencies = (key: string, value: unknown) =>
    key === "dependencies" ||
    (Array.isArray(value) && value.every((v) => typeof v === "string" && v.startsWith("urn:")))
      ? [...(value as string[])].sort()
      : value;
  const namedText = (value: unknown) =>
    JSON.stringify(value, sortedDependencies).replace(ULID, (id) => {
      if (!names.has(id)) names.set(id, `<id ${++others}>`);
      return names.get(id)!;
    });
  const text = namedText({
    ...digest,
    steps: [...(digest.steps ?? [])].sort((a, b) => String(a.urn).localeCompare(String(b.urn))),
  });
  // The engine's unknown-value sentinel is a UUID: kept as the engine wrote it.
  const portable = portableDigest(JSON.parse(text.split(UNKNOWN).join(UNKNOWN_STAND_IN)), emulatorUrl);
  const preview = JSON.parse(JSON.stringify(portable).split(UNKNOWN_STAND_IN).join(UNKNOWN));
  if (!exported) return { preview };
  const state = portableValue(
    JSON.parse(namedText({ version: exported.version, deployment: { resources } })),
    emulatorUrl,
  );
  return { preview, state };
}

/** What a preview shows for a value known only after apply (the engine's UnknownStringValue). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const UNKNOWN_STAND_IN = "<<unknown value>>";

/** `EscalationPath payments` from a URN (`…::pulumi-nodejs:dynamic/incident:EscalationPath::payments`). */
function kindAndName(urn: string): string {
  const parts = urn.split("::");
  return `${parts[2]?.split(":").pop()} ${parts[3]}`;
}
