import type { Logger } from '../domain/logger';
import type { BackgroundSlices } from '../platform/background-slices';
import type { ChangeBus } from '../platform/change-bus';
import type { AppDatabase } from '../platform/database-schema';

/** What every repository needs: the open database, the change bus, a clock and an id source. */
export interface StorageContext {
  readonly db: AppDatabase;
  readonly bus: ChangeBus;
  readonly now: () => number;
  readonly newId: () => string;
  /** Where failures a repository goes on past are reported (silent when omitted). */
  readonly logger?: Logger;
  /**
   * The page's one background scheduler: the message search's index fills in its slices, as start-up's tool index
   * does, so a hurry (a search, a turn) is one and the person's keys are listened to once.
   */
  readonly slices: BackgroundSlices;
}
