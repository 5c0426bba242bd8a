import { requireArea } from '../auth/require-area';
import type { SessionUser } from '../auth/session-user';
import { listDeliveries, listSinks } from './queries/training-sinks';

/** Every training sink (admins only: they reach every project) with its delivery counts and its latest `deliveries` batches. */
export async function listTrainingSinks(user: SessionUser, deliveries = 20) {
  requireArea(user, 'admin');
  const sinks = await listSinks();
  return Promise.all(sinks.map(async (s) => ({ ...s, deliveries: await listDeliveries(s.id, deliveries) })));
}
