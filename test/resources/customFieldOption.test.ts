/**
 * CustomFieldOption: its lookup, getCustomFieldOption (by custom field and value), against the
 * in-process emulator. The resource itself is exercised by the fault matrix (kindSamples), the export
 * tests and the emulator family's tests (test/emulator/customFields.test.ts).
 */
import { findCustomFieldOption, getCustomFieldOption } from "../../resources/customFieldOption";
import { useAlertEmulator } from "../support/alertEmulator";

const ae = useAlertEmulator({ strictPaths: /^\/v1\/custom_field_options/ });

const field = async (name: string, fieldType = "single_select") =>
  (await ae.ok("POST", "/v2/custom_fields", { name, description: "", field_type: fieldType })).custom_field
    .id as string;
const option = async (customFieldId: string, value: string, sortKey?: number) =>
  (
    await ae.ok("POST", "/v1/custom_field_options", {
      custom_field_id: customFieldId,
      value,
      sort_key: sortKey,
    })
  ).custom_field_option.id as string;

describe("getCustomFieldOption", () => {
  test("by field and exact value (values are unique within a field); a near miss is suggested", async () => {
    const teamField = await field("Affected team");
    const payments = await option(teamField, "Payments", 10);
    await option(teamField, "Identity");
    // The same value in another field is another option.
    await option(await field("Owning team"), "Payments");

    expect(
      await findCustomFieldOption(ae.dashboard, { customFieldId: teamField, value: "Payments" }),
    ).toEqual({
      id: payments,
      customFieldId: teamField,
      value: "Payments",
      sortKey: 10,
    });
    await expect(
      findCustomFieldOption(ae.dashboard, { customFieldId: teamField, value: "payments" }),
    ).rejects.toThrow(
      `getCustomFieldOption: no option of custom field ${teamField} named "payments" (did you mean "Payments"?)`,
    );
    await expect(
      findCustomFieldOption(ae.dashboard, { customFieldId: teamField, value: "Search" }),
    ).rejects.toThrow(`getCustomFieldOption: no option of custom field ${teamField} named "Search"`);
  });

  test("a field that does not exist is said as such; a field with no options has none to find", async () => {
    await expect(
      findCustomFieldOption(ae.dashboard, { customFieldId: "01NOSUCHFIELD", value: "Payments" }),
    ).rejects.toThrow('getCustomFieldOption: no custom field with id "01NOSUCHFIELD"');
    const text = await field("Notes", "text");
    await expect(findCustomFieldOption(ae.dashboard, { customFieldId: text, value: "x" })).rejects.toThrow(
      `getCustomFieldOption: no option of custom field ${text} named "x"`,
    );
  });

  test("arguments are checked before any request", async () => {
    const mark = ae.emu.requests.length;
    await expect(getCustomFieldOption({ customFieldId: "01F", value: " Payments" })).rejects.toThrow(
      /getCustomFieldOption: value: /,
    );
    await expect(getCustomFieldOption({ value: "Payments" } as never)).rejects.toThrow(
      /getCustomFieldOption: customFieldId: /,
    );
    expect(ae.emu.requests.length).toBe(mark);
  });
});
