import type { Member } from '#shared/schemas/boards.ts';

/** How many faces the board's heading shows before "+N". */
const SHOWN = 5;

/** "Ada Lovelace" → "AL"; an invited address → its first letter. */
export function initialsOf(member: Pick<Member, 'fullName' | 'email'>): string {
  const words = (member.fullName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return member.email.slice(0, 1).toUpperCase();
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}

export function memberLabel(member: Member): string {
  const who = member.fullName ?? `${member.email} (invited)`;
  return `${who}, ${member.role}`;
}

/** The board's members as initials; each named in full for assistive technology and on hover. */
export function BoardMembersStrip({ members }: { members: readonly Member[] }) {
  const shown = members.slice(0, SHOWN);
  const more = members.length - shown.length;
  return (
    <ul className="member-strip" aria-label={`Members (${members.length})`}>
      {shown.map((member) => (
        <li key={member.email} className="member-strip__avatar" data-status={member.status} title={memberLabel(member)}>
          <span aria-hidden="true">{initialsOf(member)}</span>
          <span className="visually-hidden">{memberLabel(member)}</span>
        </li>
      ))}
      {more > 0 ? (
        <li className="member-strip__avatar member-strip__more">
          <span aria-hidden="true">+{more}</span>
          <span className="visually-hidden">and {more} more</span>
        </li>
      ) : null}
    </ul>
  );
}
