// The console's own JSON endpoints, under /_console/api/.

export const api = (path) => `/_console/api/${path}`;

export async function call(path, options = {}) {
  const response = await fetch(api(path), options);
  const body = response.headers.get('content-type')?.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const error = new Error(body?.detail ?? `HTTP ${response.status}`);
    error.refused = body?.refused ?? [];
    error.status = response.status;
    throw error;
  }
  return body;
}
