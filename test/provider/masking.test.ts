/**
 * provider/masking.ts: the credentials inside a URL are masked wherever text is printed; what is not
 * a credential (an e-mail address, a setting's name, a path) is left as it is.
 */
import { maskUrl } from "../../provider/masking";

test.each([
  ["http://user:password@proxy.corp:3128", "http://***@proxy.corp:3128"],
  ["https://token@api.example.com/v2", "https://***@api.example.com/v2"],
  ["user:password@proxy.corp:3128", "***@proxy.corp:3128"],
  [
    'HTTP_PROXY (http://u:p@127.0.0.1:9), and "https://a:b@x.example.com" too',
    'HTTP_PROXY (http://***@127.0.0.1:9), and "https://***@x.example.com" too',
  ],
  [
    "connect ECONNREFUSED 127.0.0.1:9 (http://ci:s3cret@api.incident.test:8080)",
    "connect ECONNREFUSED 127.0.0.1:9 (http://***@api.incident.test:8080)",
  ],
])("%s → %s", (text, masked) => {
  expect(maskUrl(text)).toBe(masked);
});

test.each([
  "https://api.incident.io",
  "http://127.0.0.1:9/v2/users?email=ada%40example.com",
  'getUser: no user with e-mail "ada@example.com"',
  "incident:logLevel must be one of warn, info, debug",
  "check incident:baseUrl (http://127.0.0.1:9) if every request answers 404",
])("no credentials: %s is unchanged", (text) => {
  expect(maskUrl(text)).toBe(text);
});
