/** The ids of the app dialogs' forms: the dialog's 'Guardar' (in the page) submits the form (in its own chunk). */
export const LOCK_APP_FORM_ID = 'lock-app-form';
export const BUSINESS_APP_FORM_ID = 'business-app-form';
