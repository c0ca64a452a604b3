/**
 * A service catalog as code, used by alerting:
 *
 *   catalog type "Service" with attributes Tier and Tags
 *     → every service as an entry, from one declaration (CatalogEntries: undeclared entries removed)
 *   alert attribute "Affected service" holding catalog entries of that type
 *     → alert source that fills it from the alert's payload
 *       → alert route that only takes alerts about tier-1 services, by their catalog entry ids
 *
 * Config `variant=updated` adds a service and changes a tier (used by the tests to exercise updates).
 */
import * as pulumi from "@pulumi/pulumi";
import * as incident from "pulumi-incident";

const config = new pulumi.Config();
const updated = (config.get("variant") ?? "base") === "updated";

const serviceType = new incident.CatalogType("service", {
  name: "Service",
  description: "Every service we run",
  typeName: 'Custom["Service"]',
  categories: ["service"],
  icon: "server",
  useNameAsIdentifier: true,
});
const tier = new incident.CatalogTypeAttribute("tier", {
  catalogTypeId: serviceType.id,
  name: "Tier",
  type: "Number",
});
const tags = new incident.CatalogTypeAttribute("tags", {
  catalogTypeId: serviceType.id,
  name: "Tags",
  type: "String",
  array: true,
});

// Where a real setup would read its inventory (a file, another system); keyed by your own ids.
const inventory: Record<string, { name: string; tier: number; tags: string[] }> = {
  checkout: { name: "Checkout", tier: 1, tags: ["payments", "web"] },
  ledger: { name: "Ledger", tier: 1, tags: ["payments"] },
  search: { name: "Search", tier: updated ? 1 : 2, tags: ["web"] },
  ...(updated ? { reports: { name: "Reports", tier: 3, tags: [] } } : {}),
};

const services = new incident.CatalogEntries("services", {
  catalogTypeId: serviceType.id,
  entries: pulumi
    .all([tier.id, tags.id])
    .apply(([tierId, tagsId]) =>
      Object.fromEntries(
        Object.entries(inventory).map(([key, s]) => [
          key,
          { name: s.name, attributeValues: { [tierId]: String(s.tier), [tagsId]: s.tags } },
        ]),
      ),
    ),
});

// Alerts carry the service they are about as a catalog entry of that type.
const affected = new incident.AlertAttribute("affected-service", {
  name: "Affected service",
  type: serviceType.engineResourceType,
});

const source = new incident.AlertSource("monitoring", {
  name: "Monitoring",
  sourceType: "http",
  template: {
    title: "{{ alert.title }}",
    description: "{{ alert.description }}",
    // The payload names the service by external id, alias or name (the type uses names as identifiers).
    attributes: [
      { alertAttributeId: affected.id, binding: { value: { reference: "alert.attributes.service" } } },
    ],
  },
});

const tierOne = Object.keys(inventory).filter((key) => inventory[key]!.tier === 1);

new incident.AlertRoute("tier-one", {
  name: "Tier-1 services",
  enabled: true,
  alertSources: [
    {
      alertSourceId: source.id,
      conditionGroups: [
        {
          conditions: [
            {
              subject: pulumi.interpolate`alert.attributes.${affected.id}`,
              operation: "one_of",
              // The catalog entries of the tier-1 services, by id.
              paramBindings: [
                {
                  arrayValue: services.entryIds.apply((ids) =>
                    tierOne.map((key) => ({ literal: ids[key]! })),
                  ),
                },
              ],
            },
          ],
        },
      ],
    },
  ],
  escalationConfig: { autoCancelEscalations: true, escalationTargets: [] },
  incidentConfig: {
    enabled: true,
    template: { title: "{{ alert.title }}", description: "{{ alert.description }}" },
  },
});

export const serviceTypeId = serviceType.id;
export const serviceEntryIds = services.entryIds;
export const tierOneServices = tierOne;
