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
  /** Where background work (the message search's index) takes its turns; the page's own when omitted. */
  readonly slices?: BackgroundSlices;
}
