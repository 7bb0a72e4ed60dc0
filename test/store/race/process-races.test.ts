// The races between real processes, in one file so that they run one after
// another: each spawns 8 or more processes, and two at once on 2 cores would
// mostly measure the scheduler.
import { claimRaceSuite } from './claim-race.js';
import { mailboxRaceSuite } from './mailbox-race.js';
import { sigkillSuite } from './sigkill.js';

claimRaceSuite();
mailboxRaceSuite();
sigkillSuite();
