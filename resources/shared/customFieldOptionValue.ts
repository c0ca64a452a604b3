import { singleLine } from "../../provider/inputs";

/**
 * A select option's text as the API accepts it (no surrounding whitespace, no tabs or line breaks:
 * the reference's CustomFieldOptionsCreatePayloadV1.value): the options declared inline on a
 * CustomField and a CustomFieldOption's value.
 */
export const customFieldOptionValue = singleLine();
