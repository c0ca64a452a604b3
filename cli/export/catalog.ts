/**
 * Catalog entries in the export: who owns what, and one `CatalogEntries` per large type.
 *
 * - **Bulk**: the entries of a type with more than `BULK_ENTRIES_ABOVE` (50) entries are written as
 *   one `CatalogEntries` (authoritative: it owns every entry of the type, keyed by external id),
 *   not one `CatalogEntry` each: a stack of a 1,000-entry catalog is one resource, not 1,000.
 *   `--catalog-entries bulk` does it for every type, `each` for none. A type is written entry by
 *   entry all the same when an entry has no external id (CatalogEntries keys entries by it) or when
 *   some entries are not exported (a `--name` filter): an authoritative resource would delete them.
 * - **Attributes the stack does not own** (`managedAttributes`, in both forms): the export knows who
 *   maintains an attribute from its `mode` (CatalogTypeAttributeV3, reference.json: "Controls how
 *   this attribute is modified", the modes listed without their meaning, so read by their names):
 *   `api` and the unset mode (`""`) are written through the API, so the stack manages them; `dashboard` is edited
 *   in the dashboard, `backlink` and `path` are derived by the service, and `external`, `dynamic`
 *   and `internal` come from an integration's sync: their values are left to their owner. Every
 *   attribute managed: `managedAttributes` is left out (the entry owns all of them).
 * - **Types a sync owns whole**: the catalog importer (incident-io/catalog-importer) marks the types
 *   it syncs with the annotation `incident.io/catalog-importer/sync-id`; its configuration's
 *   outputs define each type's schema, it replaces their entries on every run and removes the types
 *   its configuration no longer names (its README and config docs, its `AnnotationSyncID`); a type
 *   the API answers `is_editable: false` is synced from an integration (shared/api/SUMMARY.md).
 *   Neither the type, nor its attributes, nor its entries are exported (a stack would fight the
 *   sync): one line each says so, and what refers to the type keeps its id.
 */
import type { Props } from "../../provider/spec";
import { catalogEntriesSpec, liveFromApi } from "../../resources/catalogEntries";
import type { ApiCatalogEntry } from "../../resources/catalogEntry";
import type { ApiCatalogType } from "../../resources/catalogType";
import type { Account, LiveObject } from "./read";

/** Above this many entries a type's entries are one `CatalogEntries` (unless `--catalog-entries` says). */
export const BULK_ENTRIES_ABOVE = 50;

/** `--catalog-entries`: every type's entries as one resource, or one resource per entry. */
export const CATALOG_ENTRIES_MODES = ["bulk", "each"] as const;
export type CatalogEntriesMode = (typeof CATALOG_ENTRIES_MODES)[number];

/** The annotation the catalog importer puts on each type it syncs (its `sync_id`). */
export const IMPORTER_SYNC_ID = "incident.io/catalog-importer/sync-id";

/** Attribute modes whose values are written through the API (what a stack can own). */
const WRITTEN_MODES: ReadonlySet<string> = new Set(["", "api"]);

/** What the export knows of one catalog type's owners. */
export interface TypeOwnership {
  name: string;
  /** Who syncs the whole type, when someone does (its entries are then not exported). */
  syncedBy?: string;
  /** The attributes a stack manages, when some are not (undefined: every attribute). */
  managedAttributes?: string[];
}

export function catalogOwnership(account: Account): Map<string, TypeOwnership> {
  const out = new Map<string, TypeOwnership>();
  // The types as listed (read with the entries), else as the CatalogType kind read them.
  const types = account.catalogTypes ?? [];
  const exported = account.objects
    .filter((o) => o.kind === "CatalogType")
    .map((o) => o.live as ApiCatalogType);
  for (const type of [...types, ...exported.filter((t) => !types.some((l) => l.id === t.id))]) {
    const syncId = type.annotations?.[IMPORTER_SYNC_ID];
    const syncedBy =
      syncId !== undefined
        ? `synced by the catalog importer (sync id ${JSON.stringify(syncId)}), which writes the type, its attributes and its entries on every run`
        : type.is_editable === false
          ? "synced from an integration (the API answers is_editable: false)"
          : undefined;
    const attributes = type.schema?.attributes ?? [];
    const managed = attributes.filter((a) => WRITTEN_MODES.has(a.mode ?? "")).map((a) => a.id);
    out.set(type.id, {
      name: type.name,
      syncedBy,
      managedAttributes: managed.length === attributes.length ? undefined : managed,
    });
  }
  return out;
}

/** A catalog entry's object with the attributes its declaration manages (partial ownership). */
export function withOwnership(object: LiveObject, ownership: Map<string, TypeOwnership>): LiveObject {
  if (object.kind !== "CatalogEntry") return object;
  const managed = ownership.get((object.live as ApiCatalogEntry).catalog_type_id)?.managedAttributes;
  return managed === undefined ? object : { ...object, declared: { managedAttributes: managed } };
}

/** The catalog type a type, attribute or entry belongs to. */
function catalogTypeOf(object: LiveObject): string | undefined {
  if (object.kind === "CatalogType") return object.id;
  if (object.kind === "CatalogTypeAttribute") return (object.live as { catalogTypeId: string }).catalogTypeId;
  if (object.kind === "CatalogEntry") return (object.live as ApiCatalogEntry).catalog_type_id;
  return undefined;
}

/** Why a catalog type, attribute or entry is not exported (a sync owns the type whole), or undefined. */
export function syncedObject(
  object: LiveObject,
  ownership: Map<string, TypeOwnership>,
): { typeId: string; reason: string } | undefined {
  const typeId = catalogTypeOf(object);
  const reason = typeId === undefined ? undefined : ownership.get(typeId)?.syncedBy;
  return typeId === undefined || reason === undefined ? undefined : { typeId, reason };
}

/** One object of the export before names and references: its live object, label and inputs. */
export interface Draft {
  object: LiveObject;
  label: string;
  inputs: Props;
  /** The entries a bulk draft holds (each as its own CatalogEntry draft): found by lookups elsewhere. */
  parts?: Draft[];
}

export interface BulkOptions {
  mode?: CatalogEntriesMode;
  /** Default `BULK_ENTRIES_ABOVE`. */
  above?: number;
}

/**
 * The drafts with the entries of each type written in bulk replaced by one CatalogEntries draft
 * (placed where the type's first entry was), and a note for each type wanted in bulk but written
 * entry by entry.
 */
export function bulkEntries(
  drafts: Draft[],
  account: Account,
  ownership: Map<string, TypeOwnership>,
  options: BulkOptions,
): { drafts: Draft[]; notes: string[] } {
  const above = options.above ?? BULK_ENTRIES_ABOVE;
  const notes: string[] = [];
  if (options.mode === "each") return { drafts, notes };
  const typeOf = (o: LiveObject) => (o.live as ApiCatalogEntry).catalog_type_id;
  const byType = new Map<string, Draft[]>();
  for (const d of drafts) {
    if (d.object.kind !== "CatalogEntry") continue;
    byType.set(typeOf(d.object), [...(byType.get(typeOf(d.object)) ?? []), d]);
  }
  const inAccount = new Map<string, number>();
  for (const o of account.objects) {
    if (o.kind === "CatalogEntry") inAccount.set(typeOf(o), (inAccount.get(typeOf(o)) ?? 0) + 1);
  }
  const bulk = new Map<string, Draft>();
  for (const [typeId, entries] of byType) {
    if (options.mode !== "bulk" && entries.length <= above) continue;
    const name = ownership.get(typeId)?.name ?? typeId;
    const unkeyed = entries.filter((e) => {
      const key = (e.object.live as ApiCatalogEntry).external_id;
      return key === undefined || key === "" || key.startsWith("id:");
    });
    const missing = (inAccount.get(typeId) ?? 0) - entries.length;
    const why =
      unkeyed.length > 0
        ? `${unkeyed.length} of them have no external id (CatalogEntries keys entries by it)`
        : missing > 0
          ? `${missing} of its entries are not exported, and CatalogEntries would delete them`
          : undefined;
    if (why !== undefined) {
      notes.push(
        `Catalog type ${JSON.stringify(name)}: its ${entries.length} entries are written one CatalogEntry each, not as one CatalogEntries: ${why}.`,
      );
      continue;
    }
    const managed = ownership.get(typeId)?.managedAttributes;
    const apiEntries = entries.map((e) => e.object.live as ApiCatalogEntry);
    const inputs: Props = {
      catalogTypeId: typeId,
      entries: Object.fromEntries(
        entries.map((e) => {
          const { name: entryName, aliases, rank, attributeValues } = e.inputs;
          const entry = { name: entryName, aliases, rank, attributeValues };
          for (const key of Object.keys(entry) as Array<keyof typeof entry>)
            if (entry[key] === undefined) delete entry[key];
          return [(e.object.live as ApiCatalogEntry).external_id!, entry];
        }),
      ),
      ...(managed !== undefined ? { managedAttributes: managed } : {}),
    };
    bulk.set(typeId, {
      object: {
        kind: catalogEntriesSpec.kind,
        spec: catalogEntriesSpec,
        id: typeId,
        live: liveFromApi(typeId, apiEntries),
        ...(managed !== undefined ? { declared: { managedAttributes: managed } } : {}),
      },
      label: `${name} entries`,
      inputs,
      parts: entries,
    });
  }
  const out: Draft[] = [];
  for (const d of drafts) {
    if (d.object.kind !== "CatalogEntry") out.push(d);
    else {
      const whole = bulk.get(typeOf(d.object));
      if (!whole) out.push(d);
      else if (whole.parts![0] === d) out.push(whole);
    }
  }
  return { drafts: out, notes };
}
