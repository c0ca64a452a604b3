import { stable, type TfCorpus, type TfRefs, type TfResource } from "./types";

const file = "internal/provider/incident_maintenance_window_resource_test.go";

/** The lead: the test takes the first user the API lists (`testAccMaintenanceWindowLeadUserID`). */
const lead = { id: "01USEROWNER" };
const alertConditionGroups = [
  {
    conditions: [
      { subject: "alert.title", operation: "contains", paramBindings: [{ value: { literal: "test" } }] },
    ],
  },
];
/** `maintenanceWindowDefault`: from 24 to 28 hours from now. */
const window = (r: TfRefs) => ({
  startAt: r.hoursFromNow(24),
  endAt: r.hoursFromNow(28),
  lead,
  alertConditionGroups,
});

const config = (inputs: (r: TfRefs) => Record<string, unknown>): TfResource[] => [
  { name: "maintenance_window.example", kind: "MaintenanceWindow", inputs },
];

/** incident_maintenance_window: the default window, then renamed and hidden; one with the optional fields. */
export const corpus: TfCorpus = {
  resource: "incident_maintenance_window",
  cases: [
    {
      file,
      test: "TestAccIncidentMaintenanceWindowResource",
      configs: [
        {
          step: "create",
          resources: config((r) => ({
            name: stable("Test Maintenance Window"),
            showInSidebar: true,
            ...window(r),
          })),
        },
        {
          step: "update: name, show_in_sidebar false",
          resources: config((r) => ({
            name: stable("Updated Maintenance Window"),
            showInSidebar: false,
            ...window(r),
          })),
        },
      ],
    },
    {
      file,
      test: "TestAccIncidentMaintenanceWindowResourceWithOptionalFields",
      configs: [
        {
          step: "create with the optional fields",
          resources: config((r) => ({
            name: stable("Test Maintenance Window"),
            showInSidebar: true,
            resolveOnEnd: true,
            rerouteOnEnd: false,
            notificationMessage: "Planned maintenance in progress",
            notifyStartMinutesBefore: 15,
            notifyEndMinutesBefore: 5,
            ...window(r),
          })),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentMaintenanceWindowResourceInvalidTimestamp",
      why: "a configuration expected to fail (start_at month 13), not one the service accepts: this provider refuses it at check too (`startAt`, an RFC 3339 timestamp)",
    },
  ],
};
