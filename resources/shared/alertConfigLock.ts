import { namedMutex } from "../../provider/mutex";

/**
 * The lock every alert-configuration write (alert attributes, alert sources) runs under: the API
 * keeps one alert configuration per account and rejects whichever of two parallel writes comes
 * second (the official Terraform provider serialises these writes for the same reason).
 */
export const alertConfigLock = namedMutex("alert-config");
