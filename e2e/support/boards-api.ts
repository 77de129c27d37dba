/** Boards, members and labels made through the API as whoever `api` (e.g. `page.request`) is signed in as. */
import type { Page } from '@playwright/test';

export interface Created {
  _id: string;
  name: string;
}

async function post<T>(api: Page['request'], path: string, data: unknown, key: string): Promise<T> {
  const res = await api.post(path, { data });
  if (res.status() !== 201) throw new Error(`POST ${path} answered ${res.status()}: ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, T> }).data[key] as T;
}

export const apiCreateBoard = (api: Page['request'], name: string) => post<Created>(api, '/api/boards', { name }, 'board');

export async function apiAddMember(api: Page['request'], boardId: string, email: string, role: 'admin' | 'member' | 'viewer'): Promise<void> {
  await post<unknown>(api, `/api/boards/${boardId}/members`, { email, role }, 'member');
}

export const apiCreateLabel = (api: Page['request'], boardId: string, name: string, color: string) =>
  post<Created>(api, `/api/boards/${boardId}/labels`, { name, color }, 'label');
