/** Element ids of the server-rendered page that the client entry reads. */
export const CONFIG_ELEMENT_ID = 'portal-config';
export const STATE_ELEMENT_ID = 'portal-state';
export const ROOT_ELEMENT_ID = 'root';
