import { stable, type TfCorpus, type TfResource } from "./types";

const file = "internal/provider/incident_pay_config_resource_test.go";

interface Weekly {
  weekdays: string[];
  startTime: string;
  endTime: string;
  rateCents: number;
}
interface OneOff {
  name: string;
  startAt: string;
  endAt: string;
  rateCents: number;
}

/** Every day of the weekend, midnight to midnight: equal times cover the whole day. */
const weekend: Weekly = {
  weekdays: ["saturday", "sunday"],
  startTime: "00:00",
  endTime: "00:00",
  rateCents: 1500,
};
/** Weekday evenings, until midnight. */
const night: Weekly = {
  weekdays: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  startTime: "18:00",
  endTime: "00:00",
  rateCents: 1000,
};
const nightRaised: Weekly = { ...night, rateCents: 1100 };
const friday: Weekly = { weekdays: ["friday"], startTime: "12:00", endTime: "18:00", rateCents: 800 };

const christmas: OneOff = {
  name: "Christmas Day",
  startAt: "2026-12-25T00:00:00Z",
  endAt: "2026-12-26T00:00:00Z",
  rateCents: 3000,
};
const boxing: OneOff = {
  name: "Boxing Day",
  startAt: "2026-12-26T00:00:00Z",
  endAt: "2026-12-27T00:00:00Z",
  rateCents: 2500,
};
const festive: OneOff = {
  name: "Festive break",
  startAt: "2026-12-25T00:00:00Z",
  endAt: "2026-12-27T00:00:00Z",
  rateCents: 2800,
};
const christmasLong: OneOff = { ...christmas, endAt: "2026-12-26T12:00:00Z" };
const boxingLate: OneOff = { ...boxing, startAt: "2026-12-26T12:00:00Z" };

/** `testAccIncidentPayConfigResourceConfig`: its defaults (name, Europe/London, GBP, per hour). */
const config = (
  baseRateCents: number,
  rateTimeUnit: string,
  weeklyRules: Weekly[] | undefined,
  oneOffRules: OneOff[] | undefined,
): TfResource[] => [
  {
    name: "pay_config.test",
    kind: "PayConfig",
    inputs: () => ({
      name: stable("TF test pay config"),
      timezone: "Europe/London",
      currency: "GBP",
      baseRateCents,
      rateTimeUnit,
      ...(weeklyRules ? { weeklyRules } : {}),
      ...(oneOffRules ? { oneOffRules } : {}),
    }),
  },
];

/** incident_pay_config: `testPayConfigLifecycleSteps` (the acceptance test's steps), and offset timestamps. */
export const corpus: TfCorpus = {
  resource: "incident_pay_config",
  cases: [
    {
      file,
      test: "TestAccIncidentPayConfigResource (testPayConfigLifecycleSteps)",
      configs: [
        {
          step: "create: weekend and weekday-night rules, Christmas and Boxing Day",
          resources: config(500, "hour", [weekend, night], [christmas, boxing]),
        },
        {
          step: "update: base rate and unit only",
          resources: config(600, "day", [weekend, night], [christmas, boxing]),
        },
        {
          step: "update: a weekly rule changed, one added",
          resources: config(600, "day", [weekend, nightRaised, friday], [christmas, boxing]),
        },
        {
          step: "update: the first weekly rule removed",
          resources: config(600, "day", [nightRaised, friday], [christmas, boxing]),
        },
        {
          step: "update: the boundary between the holidays moved to midday",
          resources: config(600, "day", [nightRaised, friday], [christmasLong, boxingLate]),
        },
        {
          step: "update: both holidays become one break",
          resources: config(600, "day", [nightRaised, friday], [festive]),
        },
        { step: "update: no rules (empty lists)", resources: config(600, "day", [], []) },
        {
          step: "both lists left out (nothing to plan)",
          resources: config(600, "day", undefined, undefined),
        },
      ],
    },
    {
      file,
      test: "TestIncidentPayConfigResourceOffsetTimestamps (hermetic: a fake API)",
      configs: [
        {
          step: "create: a one-off rule written with a UTC offset",
          resources: config(
            500,
            "hour",
            [],
            [
              {
                name: "New Year's Day",
                startAt: "2027-01-01T00:00:00+01:00",
                endAt: "2027-01-02T00:00:00+01:00",
                rateCents: 2000,
              },
            ],
          ),
        },
      ],
    },
  ],
  notTranslated: [
    {
      file,
      test: "TestAccIncidentPayConfigResource",
      what: "the data sources `incident_pay_config` by id and by name of step 1",
      why: "data sources, not resources, and this provider has no lookup of pay configurations: nothing to translate them to",
    },
    {
      file,
      test: "TestIncidentPayConfigResourceGoneFromAPI, TestIncidentPayConfigDataSourcePagesToFindAName",
      why: "hermetic tests of the Terraform provider's own behaviour against a fake API (a config deleted behind its back; a data source paging by name), not configurations beyond those translated: this provider's counterpart, a 404 on read taken as gone, is tested for every kind (test/provider/factory.test.ts)",
    },
  ],
};
