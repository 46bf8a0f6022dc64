/** Who the terminal's user is, as the history and memory record them. */
import { userInfo } from 'node:os';

/** The local user as `terminal:<login name>` (`terminal` when the login name cannot be read). */
export function terminalUser(): string {
  try {
    return `terminal:${userInfo().username}`;
  } catch {
    return 'terminal';
  }
}
