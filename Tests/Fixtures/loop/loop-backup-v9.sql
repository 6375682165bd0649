-- Loop's first schema (database version 9, uhabits migrations 09.sql): Repetitions without a value; every row a yes.
create table Habits (id integer primary key autoincrement, archived integer, color integer, description text, freq_den integer, freq_num integer, highlight integer, name text, position integer, reminder_hour integer, reminder_min integer);
create table Repetitions (id integer primary key autoincrement, habit integer references habits(id), timestamp integer);
insert into Habits (id, archived, color, description, freq_den, freq_num, highlight, name, position) values (1, 0, 0, '', 7, 2, 0, 'Run', 0);
insert into Repetitions (habit, timestamp) values (1, 1456790400000), (1, 1456963200000);
pragma user_version = 9;
