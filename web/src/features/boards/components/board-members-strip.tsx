import { select, t } from '@lingui/core/macro';
import { Plural, useLingui } from '@lingui/react/macro';
import type { Member } from '#shared/schemas/boards.ts';
import { initialsOf } from '#web/lib/initials.ts';
import { formatNumber } from '#web/lib/locale-format.ts';

/** How many faces the board's heading shows before "+N". */
const SHOWN = 5;

/** "Ada Lovelace, admin"; someone invited without an account yet: "bob@example.com (invited), member". Made when shown. */
export function memberLabel(member: Member): string {
  const { fullName, email, role } = member;
  if (fullName === null) {
    return t({
      message: `${email} (invited), ${select(role, { admin: 'admin', member: 'member', other: 'viewer' })}`,
      comment: 'A board member invited by e-mail who has no account yet, and their role on the board (read by screen readers and on hover)',
    });
  }
  return t({
    message: `${fullName}, ${select(role, { admin: 'admin', member: 'member', other: 'viewer' })}`,
    comment: 'A board member’s name and their role on the board (read by screen readers and on hover)',
  });
}

/** The board's members as initials; each named in full for assistive technology and on hover. */
export function BoardMembersStrip({ members }: { members: readonly Member[] }) {
  const shown = members.slice(0, SHOWN);
  const more = members.length - shown.length;
  const { t } = useLingui();
  const count = formatNumber(members.length);
  const moreShown = formatNumber(more);
  return (
    <ul className="member-strip" aria-label={t`Members (${count})`}>
      {shown.map((member) => (
        <li key={member.email} className="member-strip__avatar" data-status={member.status} title={memberLabel(member)}>
          <span aria-hidden="true">{initialsOf(member)}</span>
          <span className="visually-hidden">{memberLabel(member)}</span>
        </li>
      ))}
      {more > 0 ? (
        <li className="member-strip__avatar member-strip__more">
          <span aria-hidden="true">+{moreShown}</span>
          <span className="visually-hidden">
            <Plural value={more} one={`and ${moreShown} more`} other={`and ${moreShown} more`} />
          </span>
        </li>
      ) : null}
    </ul>
  );
}
