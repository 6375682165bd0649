-- A Loop Habit Tracker backup in Loop's own schema (database version 22+), from iSoron/uhabits
-- uhabits-core/src/jvmMain/resources/migrations (Habits and Repetitions as Loop creates them),
-- HabitRecord.kt (columns) and EntryRecord.kt (timestamp in ms at UTC midnight, value 2 yes, 0 no, 3 skip,
-- numeric x 1000). Build: sqlite3 loop-backup.db < loop-backup.sql
create table Habits (
    id integer primary key autoincrement,
    archived integer,
    color integer,
    description text,
    freq_den integer,
    freq_num integer,
    highlight integer,
    name text,
    position integer,
    reminder_hour integer,
    reminder_min integer,
    reminder_days integer not null default 127,
    type integer not null default 0,
    target_type integer not null default 0,
    target_value real not null default 0,
    unit text not null default "",
    question text,
    uuid text
);
create table Repetitions (
    id integer primary key autoincrement,
    habit integer,
    timestamp integer,
    value integer not null,
    notes text,
    foreign key (habit) references Habits(id) on update cascade on delete cascade
);
insert into Habits (id, archived, color, description, freq_den, freq_num, highlight, name, position, reminder_days, type, target_type, target_value, unit, question, uuid) values
  (1, 0, 8, '', 1, 1, 0, 'Meditate', 0, 127, 0, 0, 0, '', 'Did you meditate today?', 'a1'),
  (2, 0, 3, '', 7, 3, 0, 'Gym', 1, 127, 0, 0, 0, '', 'Did you go?', 'a2'),
  (3, 0, 5, '', 1, 1, 0, 'Water', 2, 127, 1, 0, 8.0, 'glasses', 'How many glasses?', 'a3'),
  (4, 1, 1, '', 1, 1, 0, 'Soda', 3, 127, 1, 1, 1.0, 'cans', 'How many cans?', 'a4'),
  (5, 0, 1, '', 7, 9, 0, 'Impossible', 4, 127, 0, 0, 0, '', '', 'a5');
insert into Repetitions (habit, timestamp, value, notes) values
  (1, 1780272000000, 2, ''),
  (1, 1780358400000, 2, ''),
  (1, 1780444800000, 2, ''),
  (1, 1780531200000, 2, ''),
  (1, 1780617600000, 2, ''),
  (1, 1780704000000, 3, ''),
  (1, 1780790400000, 0, ''),
  (1, 1780876800000, 2, 'Felt calm'),
  (2, 1780272000000, 2, ''),
  (2, 1780444800000, 2, ''),
  (2, 1780617600000, 2, ''),
  (2, 1780876800000, 2, ''),
  (3, 1780272000000, 8000, ''),
  (3, 1780358400000, 6500, ''),
  (3, 1780444800000, 9000, ''),
  (4, 1780272000000, 0, ''),
  (4, 1780358400000, 2000, ''),
  (5, 1780272000000, 2, ''),
  (1, 1780099200000, 7, ''),
  (2, -3786825600000, 2, '');
pragma user_version = 24;
