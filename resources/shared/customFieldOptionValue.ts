import { singleLine } from "../../provider/inputs";

/**
 * A select option's text as the API accepts it (not empty, no surrounding whitespace): the options
 * declared inline on a CustomField and a CustomFieldOption's value.
 */
export const customFieldOptionValue = singleLine();
