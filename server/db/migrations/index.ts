import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-initial.ts';
import * as m0002 from './0002-throttle-locks.ts';
import * as m0003 from './0003-task-versions-and-events.ts';
import * as m0004 from './0004-rate-limit-hits.ts';
import * as m0005 from './0005-board-features.ts';
import * as m0006 from './0006-mail.ts';
import * as m0007 from './0007-search-index-email.ts';
import * as m0008 from './0008-stream-sessions.ts';
import * as m0009 from './0009-mail-sender-cap.ts';
import * as m0010 from './0010-board-deadline-indexes.ts';
import * as m0011 from './0011-boards.ts';
import * as m0012 from './0012-task-details.ts';
import * as m0013 from './0013-activity-checklist-type.ts';
import * as m0014 from './0014-notifications.ts';
import * as m0015 from './0015-integrations.ts';
import * as m0016 from './0016-idempotency-keys.ts';
import * as m0017 from './0017-outbox-lanes.ts';
import * as m0018 from './0018-event-subject-id.ts';
import * as m0019 from './0019-list-read-indexes.ts';
import * as m0021 from './0021-board-columns.ts';
import * as m0023 from './0023-task-start.ts';
import * as m0024 from './0024-attachments.ts';
import * as m0025 from './0025-two-step.ts';
import * as m0026 from './0026-oidc.ts';
import * as m0027 from './0027-passkeys.ts';
import * as m0028 from './0028-instance-admins.ts';
import * as m0029 from './0029-languages.ts';
import * as m0030 from './0030-outbox-texts.ts';
import * as m0031 from './0031-task-label-ids.ts';

/**
 * The one migration history, listed explicitly (no directory scanning, so it works the same
 * from any working directory). Names sort in the order they apply; never rename or edit one
 * that has shipped — add a new file.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-throttle-locks': m0002,
  '0003-task-versions-and-events': m0003,
  '0004-rate-limit-hits': m0004,
  '0005-board-features': m0005,
  '0006-mail': m0006,
  '0007-search-index-email': m0007,
  '0008-stream-sessions': m0008,
  '0009-mail-sender-cap': m0009,
  '0010-board-deadline-indexes': m0010,
  '0011-boards': m0011,
  '0012-task-details': m0012,
  '0013-activity-checklist-type': m0013,
  '0014-notifications': m0014,
  '0015-integrations': m0015,
  '0016-idempotency-keys': m0016,
  '0017-outbox-lanes': m0017,
  '0018-event-subject-id': m0018,
  '0019-list-read-indexes': m0019,
  '0021-board-columns': m0021,
  '0023-task-start': m0023,
  '0024-attachments': m0024,
  '0025-two-step': m0025,
  '0026-oidc': m0026,
  '0027-passkeys': m0027,
  '0028-instance-admins': m0028,
  '0029-languages': m0029,
  '0030-outbox-texts': m0030,
  '0031-task-label-ids': m0031,
};
