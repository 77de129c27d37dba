/** The Taskwise mark: a check in a rounded square. Decorative; the name is always beside it. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg className="logo" viewBox="0 0 32 32" width={size} height={size} aria-hidden="true">
      <defs>
        <linearGradient id="tw-logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6d6cf7" />
          <stop offset="1" stopColor="#3d36c4" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#tw-logo-gradient)" />
      <path d="M9.5 16.5 14 21l8.5-9.5" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
