// Lets scripts run by tsx import the SQL migrations as text (esbuild and jest do the same).
import { register } from 'node:module';

register('./sqlLoaderHooks.mjs', import.meta.url);
