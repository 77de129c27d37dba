/** From this width the board switcher is a sidebar beside every signed-in page; below it, a menu by the board's name. */
export const SIDEBAR_QUERY = '(min-width: 64rem)';
