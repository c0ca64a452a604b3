// Every suite closes the provider client's keep-alive pools at the end, so jest can exit promptly.
import { closeAllConnections } from "../provider/client";

afterAll(async () => {
  await closeAllConnections();
});
