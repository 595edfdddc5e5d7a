import m0001 from './0001_extensions.sql';
import m0002 from './0002_identity.sql';
import m0003 from './0003_admins.sql';
import m0004 from './0004_lock_app_versions.sql';
import m0005 from './0005_audit.sql';
import m0006 from './0006_inventory.sql';
import m0007 from './0007_list_indexes.sql';
import m0008 from './0008_session_binding.sql';
import m0009 from './0009_reset_code_attempts.sql';
import m0010 from './0010_agent.sql';
import m0011 from './0011_search_fold.sql';
import m0012 from './0012_agent_settings.sql';
import m0013 from './0013_dashboard.sql';
import m0014 from './0014_search_words.sql';
import m0015 from './0015_integration.sql';
import m0016 from './0016_device_search.sql';
import m0017 from './0017_last_seen_triggers.sql';
import m0018 from './0018_pre_enrolled_indexes.sql';
import m0019 from './0019_released_hourly.sql';
import m0020 from './0020_device_key_prefixes.sql';
import m0021 from './0021_list_indexes_without_in_flight.sql';
import m0022 from './0022_in_flight_filters.sql';
import m0023 from './0023_lock_integrity.sql';
import m0024 from './0024_credits.sql';
import m0025 from './0025_collection_policy.sql';
import m0026 from './0026_collection_policy_page.sql';
import m0027 from './0027_dashboard_credits.sql';
import m0028 from './0028_credit_device_changes.sql';
import m0029 from './0029_reconciliation.sql';

export interface Migration {
  /** The file name without `.sql`: a four-digit number, an underscore, a name. */
  id: string;
  sql: string;
}

/** Every migration, in the order it runs. A test checks this list against the folder. */
export const migrations: readonly Migration[] = [
  { id: '0001_extensions', sql: m0001 },
  { id: '0002_identity', sql: m0002 },
  { id: '0003_admins', sql: m0003 },
  { id: '0004_lock_app_versions', sql: m0004 },
  { id: '0005_audit', sql: m0005 },
  { id: '0006_inventory', sql: m0006 },
  { id: '0007_list_indexes', sql: m0007 },
  { id: '0008_session_binding', sql: m0008 },
  { id: '0009_reset_code_attempts', sql: m0009 },
  { id: '0010_agent', sql: m0010 },
  { id: '0011_search_fold', sql: m0011 },
  { id: '0012_agent_settings', sql: m0012 },
  { id: '0013_dashboard', sql: m0013 },
  { id: '0014_search_words', sql: m0014 },
  { id: '0015_integration', sql: m0015 },
  { id: '0016_device_search', sql: m0016 },
  { id: '0017_last_seen_triggers', sql: m0017 },
  { id: '0018_pre_enrolled_indexes', sql: m0018 },
  { id: '0019_released_hourly', sql: m0019 },
  { id: '0020_device_key_prefixes', sql: m0020 },
  { id: '0021_list_indexes_without_in_flight', sql: m0021 },
  { id: '0022_in_flight_filters', sql: m0022 },
  { id: '0023_lock_integrity', sql: m0023 },
  { id: '0024_credits', sql: m0024 },
  { id: '0025_collection_policy', sql: m0025 },
  { id: '0026_collection_policy_page', sql: m0026 },
  { id: '0027_dashboard_credits', sql: m0027 },
  { id: '0028_credit_device_changes', sql: m0028 },
  { id: '0029_reconciliation', sql: m0029 },
];
