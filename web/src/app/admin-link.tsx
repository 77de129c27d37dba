import { Trans } from '@lingui/react/macro';
import { NavLink } from 'react-router';
import { useSettings } from '#web/features/account/api/get-settings.ts';

/**
 * "Admin" in the navigation bar and the phone's account menu, for an instance admin only (GET /api/users/me/settings says
 * whether one is, asked once the session is confirmed). In the signed-in pages' chunk: /login never downloads it.
 */
export function AdminLink({ className, onNavigate }: { className: string; onNavigate?: () => void }) {
  const settings = useSettings();
  if (settings.data?.data.isAdmin !== true) return null;
  return (
    <li>
      <NavLink to="/admin" className={className} onClick={onNavigate}>
        <Trans comment="The link to the instance admin’s page">Admin</Trans>
      </NavLink>
    </li>
  );
}
