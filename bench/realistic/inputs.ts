/**
 * The files attached to the requests, as a chat user would attach them. They were generated once
 * with a seeded script and are kept verbatim here: the expected answers in `cases/` were computed
 * from exactly these bytes.
 */

/** A sales export: one row per sale, 31 rows from 2024-02-22 to 2024-04-01 (three on month edges). */
export const SALES_CSV = `date,region,product,units,unit_price
2024-02-22,West,Widget,4,4.99
2024-02-23,North,Gadget,36,12.50
2024-02-23,East,Gadget,27,12.50
2024-02-23,North,Gadget,37,12.50
2024-02-24,South,Gizmo,7,7.25
2024-02-24,East,Gadget,7,12.50
2024-02-25,North,Widget,40,4.99
2024-02-25,West,Gadget,35,12.50
2024-02-26,East,Doohickey,30,19.99
2024-02-27,East,Doohickey,20,19.99
2024-02-29,South,Gadget,16,12.50
2024-02-29,East,Widget,34,4.99
2024-03-01,East,Doohickey,29,19.99
2024-03-04,North,Gizmo,8,7.25
2024-03-05,South,Doohickey,22,19.99
2024-03-06,West,Gadget,27,12.50
2024-03-11,North,Widget,36,4.99
2024-03-14,East,Gizmo,23,7.25
2024-03-16,West,Doohickey,5,19.99
2024-03-17,East,Widget,31,4.99
2024-03-18,North,Widget,20,4.99
2024-03-18,East,Doohickey,25,19.99
2024-03-23,North,Gizmo,30,7.25
2024-03-25,South,Gizmo,40,7.25
2024-03-26,West,Widget,4,4.99
2024-03-27,East,Gadget,9,12.50
2024-03-28,West,Gadget,26,12.50
2024-03-31,North,Doohickey,11,19.99
2024-03-31,West,Doohickey,36,19.99
2024-04-01,South,Gizmo,28,7.25
2024-04-01,West,Gizmo,23,7.25
`;

/** Orders: 41 rows, 15 customers, 8 rows without an email. */
export const ORDERS_CSV = `order_id,customer_id,customer_name,email,amount
1001,C004,Dana Levi,dana.levi@example.com,128.98
1002,C002,Ben Okafor,ben.okafor@example.com,73.99
1003,C001,Ana Silva,ana.silva@example.com,25.56
1004,C004,Dana Levi,dana.levi@example.com,99.82
1005,C001,Ana Silva,ana.silva@example.com,14.16
1006,C002,Ben Okafor,ben.okafor@example.com,91.94
1007,C003,Chen Wei,chen.wei@example.com,127.15
1008,C002,Ben Okafor,ben.okafor@example.com,77.47
1009,C004,Dana Levi,dana.levi@example.com,63.98
1010,C003,Chen Wei,chen.wei@example.com,38.30
1011,C001,Ana Silva,,116.11
1012,C001,Ana Silva,ana.silva@example.com,61.04
1013,C001,Ana Silva,ana.silva@example.com,5.08
1014,C007,Gus Berg,gus.berg@example.com,12.59
1015,C013,Mo Farouk,mo.farouk@example.com,62.63
1016,C003,Chen Wei,chen.wei@example.com,33.78
1017,C009,Ivan Petrov,ivan.petrov@example.com,50.13
1018,C001,Ana Silva,ana.silva@example.com,114.92
1019,C004,Dana Levi,,107.52
1020,C001,Ana Silva,,120.57
1021,C006,Fatima Zahra,fatima.zahra@example.com,32.32
1022,C017,Quinn Ryan,quinn.ryan@example.com,111.12
1023,C005,Eli Novak,eli.novak@example.com,60.64
1024,C013,Mo Farouk,mo.farouk@example.com,35.87
1025,C009,Ivan Petrov,ivan.petrov@example.com,146.35
1026,C010,Jade Moreau,jade.moreau@example.com,7.85
1027,C006,Fatima Zahra,fatima.zahra@example.com,128.88
1028,C004,Dana Levi,,26.22
1029,C015,Omar Haddad,omar.haddad@example.com,117.04
1030,C011,Kofi Mensah,kofi.mensah@example.com,60.99
1031,C003,Chen Wei,,89.50
1032,C008,Hana Sato,,58.46
1033,C015,Omar Haddad,,90.15
1034,C005,Eli Novak,eli.novak@example.com,31.51
1035,C005,Eli Novak,eli.novak@example.com,38.12
1036,C008,Hana Sato,hana.sato@example.com,27.98
1037,C007,Gus Berg,gus.berg@example.com,61.29
1038,C016,Pia Lund,pia.lund@example.com,66.11
1039,C004,Dana Levi,,79.29
1040,C009,Ivan Petrov,ivan.petrov@example.com,107.16
1041,C009,Ivan Petrov,ivan.petrov@example.com,136.20
`;

/** Support tickets: 55 rows; the priority column is typed inconsistently (Urgent, URGENT, "urgent "). */
export const TICKETS_CSV = `ticket_id,opened,priority,status
T-0500,2024-05-26,high,closed
T-0501,2024-05-21,High,closed
T-0502,2024-05-15,URGENT,open
T-0503,2024-05-02,urgent,open
T-0504,2024-05-16,Urgent,open
T-0505,2024-05-04,Urgent,closed
T-0506,2024-05-07,high,open
T-0507,2024-05-28,normal,open
T-0508,2024-05-26,urgent,open
T-0509,2024-05-15,low,closed
T-0510,2024-05-28,low,open
T-0511,2024-05-31,low,closed
T-0512,2024-05-10,urgent ,pending
T-0513,2024-05-29,normal,open
T-0514,2024-05-31,High,open
T-0515,2024-05-31,urgent ,open
T-0516,2024-05-12,Urgent,closed
T-0517,2024-05-09,normal,pending
T-0518,2024-05-20,low,closed
T-0519,2024-05-23,high,closed
T-0520,2024-05-27,normal,closed
T-0521,2024-05-06,normal,closed
T-0522,2024-05-02,Normal,closed
T-0523,2024-05-31,normal,pending
T-0524,2024-05-01,urgent,closed
T-0525,2024-05-13,Normal,closed
T-0526,2024-05-02,high,open
T-0527,2024-05-31,High,closed
T-0528,2024-05-30,Low,closed
T-0529,2024-05-17,urgent,closed
T-0530,2024-05-25,normal,closed
T-0531,2024-05-25,normal,closed
T-0532,2024-05-02,urgent,pending
T-0533,2024-05-07,normal,pending
T-0534,2024-05-30,normal,closed
T-0535,2024-05-23,low,open
T-0536,2024-05-11,Normal,closed
T-0537,2024-05-21,normal,closed
T-0538,2024-05-16,low,closed
T-0539,2024-05-20,low,open
T-0540,2024-05-08,Normal,closed
T-0541,2024-05-09,urgent,closed
T-0542,2024-05-02,normal,closed
T-0543,2024-05-26,urgent ,closed
T-0544,2024-05-05,Normal,closed
T-0545,2024-05-05,urgent ,closed
T-0546,2024-05-04,high,closed
T-0547,2024-05-02,low,closed
T-0548,2024-05-15,Urgent,closed
T-0549,2024-05-06,URGENT,closed
T-0550,2024-05-16,urgent ,closed
T-0551,2024-05-09,High,closed
T-0552,2024-05-05,normal,closed
T-0553,2024-05-18,low,closed
T-0554,2024-05-16,urgent ,closed
`;

/** Daily mean temperatures (°C) from 2024-01-01 to 2024-06-30, one value per day, in order. */
const DAILY_VALUES = `2.2 4.6 3.2 5.0 5.2 0.7 0.2 6.8 2.1 1.9 8.0 3.8 6.7 3.8 5.1 1.2 5.1 7.0 4.2 6.0
5.4 0.6 6.2 4.9 2.6 0.4 7.2 4.1 6.1 7.4 6.1 7.8 3.7 7.0 4.2 8.2 7.8 1.6 2.0 2.8
8.8 4.7 6.3 3.8 5.5 4.6 4.5 6.4 6.5 9.2 7.5 9.6 9.2 10.4 7.9 4.0 9.7 10.6 10.3 7.7
9.0 5.2 10.3 8.3 6.2 4.6 11.0 12.3 5.2 11.1 8.1 6.2 7.5 11.4 12.4 6.0 10.7 6.3 11.9 9.0
13.5 14.5 10.9 15.0 9.7 8.0 12.4 8.0 9.5 11.4 13.2 9.7 9.0 15.8 11.6 16.9 16.6 12.6 13.5 14.2
15.3 15.1 15.0 15.7 18.5 15.2 14.8 17.3 13.6 14.3 19.9 16.5 16.9 12.8 16.2 17.7 13.4 18.4 18.7 14.3
19.0 17.9 19.8 17.4 20.4 20.8 15.3 15.8 20.9 23.4 17.8 19.7 20.9 18.9 19.4 19.2 19.8 21.8 19.6 20.4
23.7 17.9 22.4 23.9 20.6 20.1 24.9 20.5 20.2 22.3 24.6 20.0 21.8 22.1 26.2 23.2 26.6 21.3 22.7 25.3
27.3 24.0 22.3 21.6 24.9 22.3 27.3 27.7 22.5 23.4 27.7 26.5 27.9 24.3 22.6 24.0 28.1 23.9 24.6 25.2
25.3 25.3`;

/** `date,temp_c` rows built from {@link DAILY_VALUES}: 182 days (2024 is a leap year). */
export const DAILY_TEMPS_CSV = ['date,temp_c']
  .concat(
    DAILY_VALUES.split(/\s+/).map((v, i) => `${new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10)},${v}`),
  )
  .join('\n')
  .concat('\n');

/** Monthly climate normals, rows sorted alphabetically by month (as some tools export them). */
export const MONTHLY_CLIMATE_CSV = `month,avg_temp_c
Apr,10.4
Aug,20.1
Dec,2.3
Feb,2.5
Jan,1.2
Jul,20.9
Jun,18.3
Mar,6.1
May,14.8
Nov,5.9
Oct,11.0
Sep,16.2
`;

/** 60 exam scores between 23 and 98, none on a multiple of 10. */
export const SCORES_CSV = `student,score\n${`23 98 56 55 73 94 74 51 56 67 82 68 63 65 57 68 72 92 67 82 53 81 68 81 63 83 92 92 49 73 58 82 69 71 75 59 69 57 61 68 42 46 56 79 72 59 95 53 55 75 53 72 82 67 74 69 58 68 44 71`
  .split(' ')
  .map((s, i) => `S${String(i + 1).padStart(2, '0')},${s}`)
  .join('\n')}\n`;

/** A short memo for word counting (126 words). */
export const MEMO_TXT = `The team met on Monday to plan the launch. The launch was moved twice last year, so the team wants a launch date
that holds. Data from the beta shows that users open the app each morning, while the data also shows that
most of them leave when the app is slow. App speed is the plan: the team will cut the start time by half before
the launch. Marketing wants the launch in May; engineering wants June. Data will decide. If the
beta data holds, the launch goes ahead in May, and the team celebrates. If not, the team waits, fixes the app,
and tries again. Either way, the users come first, and the app comes second. Launch day is for them, says the team.
`;

/** An application log of one morning: 47 lines, levels INFO, WARNING and ERROR. */
export const APP_LOG = `2024-06-03 08:11:55 WARNING slow query
2024-06-03 08:17:08 INFO cleared 3 ERROR flags after restart
2024-06-03 08:21:32 INFO request served
2024-06-03 08:21:35 WARNING slow query
2024-06-03 08:29:57 INFO request served
2024-06-03 08:38:05 INFO cache refreshed
2024-06-03 08:39:23 ERROR payment failed
2024-06-03 08:43:00 ERROR db timeout
2024-06-03 09:03:07 INFO request served
2024-06-03 09:08:32 ERROR db timeout
2024-06-03 09:10:15 INFO request served
2024-06-03 09:10:45 WARNING slow query
2024-06-03 09:27:10 ERROR db timeout
2024-06-03 09:28:46 ERROR payment failed
2024-06-03 09:44:02 INFO cache refreshed
2024-06-03 09:46:24 INFO request served
2024-06-03 09:55:59 INFO user login
2024-06-03 10:04:49 INFO request served
2024-06-03 10:13:43 INFO request served
2024-06-03 10:14:46 INFO request served
2024-06-03 10:44:24 INFO user login
2024-06-03 10:50:26 INFO request served
2024-06-03 10:50:47 ERROR upstream 502
2024-06-03 10:56:05 INFO cache refreshed
2024-06-03 10:56:06 WARNING slow query
2024-06-03 10:58:18 INFO cache refreshed
2024-06-03 11:00:56 INFO request served
2024-06-03 11:02:12 INFO user login
2024-06-03 11:21:51 INFO user login
2024-06-03 11:25:17 INFO user login
2024-06-03 11:26:03 INFO cache refreshed
2024-06-03 11:45:56 INFO cache refreshed
2024-06-03 11:58:13 ERROR payment failed
2024-06-03 12:07:48 INFO request served
2024-06-03 12:08:01 INFO cache refreshed
2024-06-03 12:15:27 ERROR upstream 502
2024-06-03 12:37:12 WARNING retrying upstream
2024-06-03 12:38:00 INFO request served
2024-06-03 12:47:58 WARNING slow query
2024-06-03 12:54:07 ERROR payment failed
2024-06-03 12:54:31 WARNING slow query
2024-06-03 13:08:34 INFO request served
2024-06-03 13:21:00 INFO request served
2024-06-03 13:32:05 WARNING slow query
2024-06-03 13:36:31 WARNING retrying upstream
2024-06-03 13:57:05 ERROR payment failed
2024-06-03 13:58:01 INFO request served
`;
