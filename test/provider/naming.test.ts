import {
  caseMappedObject,
  type FieldRenames,
  inputPathForApiField,
  renameFieldPath,
} from "../../provider/naming";
import { alertRouteSpec } from "../../resources/alertRoute";
import { apiKeySpec } from "../../resources/apiKey";

describe("API field paths → input paths (renames by path prefix)", () => {
  test("without renames: camelCase segments, indices in brackets", () => {
    expect(inputPathForApiField("path.0.if_else.else_path.0.notify_channel")).toBe(
      "path[0].ifElse.elsePath[0].notifyChannel",
    );
  });

  test("a renamed prefix keeps what follows it; the longest prefix wins", () => {
    const renames: FieldRenames = { role_names: "roles", "a.b": "x", "a.b.c": "y.z" };
    expect(inputPathForApiField("role_names", renames)).toBe("roles");
    expect(inputPathForApiField("role_names.2", renames)).toBe("roles[2]");
    expect(renameFieldPath("a.b.d_e", renames)).toBe("x.d_e");
    expect(renameFieldPath("a.b.c.0", renames)).toBe("y.z.0");
    // Only whole segments match.
    expect(renameFieldPath("role_names_extra", renames)).toBe("role_names_extra");
  });

  test("a `.*` key folds everything under it into one input; an empty value drops a wrapper", () => {
    const renames: FieldRenames = { "t.name.*": "title", "t.name.auto": "generateTitle", wrap: "" };
    expect(renameFieldPath("t.name", renames)).toBe("title");
    expect(renameFieldPath("t.name.binding.value.literal", renames)).toBe("title");
    expect(renameFieldPath("t.name.auto", renames)).toBe("generateTitle");
    expect(renameFieldPath("wrap.timezone", renames)).toBe("timezone");
    expect(renameFieldPath("wrap", renames)).toBe("");
  });

  test("the resources' own renames", () => {
    const route = alertRouteSpec.fieldRenames as FieldRenames;
    expect(inputPathForApiField("grouping_config.default.window_seconds", route)).toBe(
      "groupingConfig.windowSeconds",
    );
    expect(inputPathForApiField("incident_config.template.name.binding.value.literal", route)).toBe(
      "incidentConfig.template.title",
    );
    expect(inputPathForApiField("incident_config.template.summary", route)).toBe(
      "incidentConfig.template.description",
    );
    expect(inputPathForApiField("team_role_names.1", apiKeySpec.fieldRenames as FieldRenames)).toBe(
      "teamRoles[1]",
    );
  });
});

describe("caseMappedObject: a flat sub-object whose API form differs only in key case", () => {
  const retry = caseMappedObject<{ attempts: number; intervalSeconds?: number }>([
    "attempts",
    "intervalSeconds",
  ]);

  test("maps the listed fields to snake_case and back", () => {
    expect(retry.toApi({ attempts: 3, intervalSeconds: 120 })).toEqual({
      attempts: 3,
      interval_seconds: 120,
    });
    expect(retry.fromApi({ attempts: 3, interval_seconds: 120 })).toEqual({
      attempts: 3,
      intervalSeconds: 120,
    });
  });

  test("reads back only the listed fields: a field the API adds never reaches the outputs", () => {
    const live = { attempts: 2, interval_seconds: 60, label: "Retry twice" };
    expect(retry.fromApi(live)).toEqual({ attempts: 2, intervalSeconds: 60 });
  });

  test("undefined and null pass through unchanged", () => {
    expect(retry.toApi(undefined)).toBeUndefined();
    expect(retry.fromApi(null)).toBeNull();
  });
});
