-- Health Connect's export database (health_connect_export.db), the tables a weight import reads, with the columns AOSP's
-- InstantRecordHelper / WeightRecordHelper / BodyFatRecordHelper give them (times in ms since 1970, zone offsets in
-- seconds, mass in grams) and the bookkeeping columns every record table has.
CREATE TABLE application_info_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, package_name TEXT NOT NULL UNIQUE, app_name TEXT);
INSERT INTO application_info_table VALUES (1, 'com.renpho.health', 'Renpho Health'), (2, 'com.google.android.apps.fitness', 'Fit');
CREATE TABLE weight_record_table (
    row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER NOT NULL,
    client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER NOT NULL,
    recording_method INTEGER, dedupe_hash BLOB, time INTEGER NOT NULL, zone_offset INTEGER, local_date INTEGER,
    weight REAL NOT NULL);
INSERT INTO weight_record_table (uuid, last_modified_time, app_info_id, recording_method, time, zone_offset, local_date, weight) VALUES
    (x'01', 1767340000000, 1, 2, 1767339005000, 3600, 20455, 81400.0),
    (x'02', 1767426000000, 1, 2, 1767425400000, 3600, 20456, 81150.0),
    (x'03', 1767512000000, 2, 3, 1767511800000, 3600, 20457, 600000.0);
CREATE TABLE body_fat_record_table (
    row_id INTEGER PRIMARY KEY AUTOINCREMENT, uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER NOT NULL,
    client_record_id TEXT, client_record_version TEXT, device_info_id INTEGER, app_info_id INTEGER NOT NULL,
    recording_method INTEGER, dedupe_hash BLOB, time INTEGER NOT NULL, zone_offset INTEGER, local_date INTEGER,
    percentage REAL NOT NULL);
INSERT INTO body_fat_record_table (uuid, last_modified_time, app_info_id, recording_method, time, zone_offset, local_date, percentage) VALUES
    (x'11', 1767340000000, 1, 2, 1767339005000, 3600, 20455, 22.4);
CREATE TABLE steps_record_table (row_id INTEGER PRIMARY KEY AUTOINCREMENT, start_time INTEGER, end_time INTEGER, count INTEGER);
INSERT INTO steps_record_table (start_time, end_time, count) VALUES (1767339000000, 1767342600000, 1200);
