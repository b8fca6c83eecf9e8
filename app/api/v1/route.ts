// `/api/v1` itself (the catch-all beside it needs at least one segment): the same JSON 404 as any unknown path.
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from './[...path]/route';
