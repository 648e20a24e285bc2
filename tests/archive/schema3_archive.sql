-- An archive of schema 3 written by bridgeproc before schema 4 (synthetic_session(3, 4, seed=5),
-- versions 1 and 2 of 2026-11-30_monday-pairs), as sqlite3's iterdump: the migration test's input.
BEGIN TRANSACTION;
CREATE TABLE archive_info (
	"key" VARCHAR(64) NOT NULL, 
	value TEXT NOT NULL, 
	PRIMARY KEY ("key")
);
INSERT INTO "archive_info" VALUES('schema_version','3');
CREATE TABLE boards (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	board INTEGER, 
	dealer VARCHAR(1), 
	vul VARCHAR(4), 
	deal TEXT, 
	source TEXT, 
	line BIGINT, 
	"dd_N_C" SMALLINT, 
	"dd_N_D" SMALLINT, 
	"dd_N_H" SMALLINT, 
	"dd_N_S" SMALLINT, 
	"dd_N_NT" SMALLINT, 
	"dd_E_C" SMALLINT, 
	"dd_E_D" SMALLINT, 
	"dd_E_H" SMALLINT, 
	"dd_E_S" SMALLINT, 
	"dd_E_NT" SMALLINT, 
	"dd_S_C" SMALLINT, 
	"dd_S_D" SMALLINT, 
	"dd_S_H" SMALLINT, 
	"dd_S_S" SMALLINT, 
	"dd_S_NT" SMALLINT, 
	"dd_W_C" SMALLINT, 
	"dd_W_D" SMALLINT, 
	"dd_W_H" SMALLINT, 
	"dd_W_S" SMALLINT, 
	"dd_W_NT" SMALLINT, 
	par_score INTEGER, 
	par_contracts TEXT, 
	par_optimum_score TEXT, 
	double_dummy_tricks TEXT, 
	optimum_score TEXT, 
	optimum_contract TEXT, 
	extra TEXT, 
	PRIMARY KEY (version_id, pos), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
INSERT INTO "boards" VALUES(1,0,1,'N','None','N:Q74.KQ5.43.QT873 KJT.T7.AT72.A962 A95.J9862.J8.K54 8632.A43.KQ965.J','synthetic.pbn',20,13,6,9,0,5,6,4,6,9,2,4,3,10,2,0,11,10,13,6,3,540,'EW 3NTE+1',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(1,1,2,'E','NS','N:J4.J763.AKQJ3.Q2 A653.AQ954.T.T86 T72.T.8542.AJ953 KQ98.K82.976.K74','synthetic.pbn',40,1,5,0,3,8,12,8,1,5,4,7,10,6,13,12,5,0,3,7,0,830,'NS 4SN=',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(1,2,3,'S','EW','N:AJT984.J2.J7.T73 Q75.QT85..A96542 2.K74.QT9862.KJ8 K63.A963.AK543.Q','synthetic.pbn',60,7,7,7,10,0,10,11,13,1,12,8,8,4,0,9,6,7,5,10,12,-360,'EW 3NTE+1',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(1,3,4,'W','All','N:3.A63.KQ86.J7542 AQT97.J974.T.863 KJ8642.T2.432.QT 5.KQ85.AJ975.AK9','synthetic.pbn',80,13,2,0,5,13,3,12,11,10,8,1,11,5,5,5,5,3,0,6,2,-740,'NS 4SN=',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(2,0,1,'N','None','N:Q74.KQ5.43.QT873 KJT.T7.AT72.A962 A95.J9862.J8.K54 8632.A43.KQ965.J','synthetic.pbn',20,13,6,9,0,5,6,4,6,9,2,4,3,10,2,0,11,10,13,6,3,540,'EW 3NTE+1',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(2,1,2,'E','NS','N:J4.J763.AKQJ3.Q2 A653.AQ954.T.T86 T72.T.8542.AJ953 KQ98.K82.976.K74','synthetic.pbn',40,1,5,0,3,8,12,8,1,5,4,7,10,6,13,12,5,0,3,7,0,830,'NS 4SN=',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(2,2,3,'S','EW','N:AJT984.J2.J7.T73 Q75.QT85..A96542 2.K74.QT9862.KJ8 K63.A963.AK543.Q','synthetic.pbn',60,7,7,7,10,0,10,11,13,1,12,8,8,4,0,9,6,7,5,10,12,-360,'EW 3NTE+1',NULL,NULL,NULL,NULL,NULL);
INSERT INTO "boards" VALUES(2,3,4,'W','All','N:3.A63.KQ86.J7542 AQT97.J974.T.863 KJ8642.T2.432.QT 5.KQ85.AJ975.AK9','synthetic.pbn',80,13,2,0,5,13,3,12,11,10,8,1,11,5,5,5,5,3,0,6,2,-740,'NS 4SN=',NULL,NULL,NULL,NULL,NULL);
CREATE TABLE corrections (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	section TEXT, 
	board INTEGER, 
	ns TEXT, 
	ew TEXT, 
	field VARCHAR(16), 
	was TEXT, 
	now TEXT, 
	reason TEXT, 
	source TEXT, 
	line BIGINT, 
	result_source TEXT, 
	result_line BIGINT, 
	extra TEXT, 
	PRIMARY KEY (version_id, pos), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
CREATE TABLE frames (
	version_id INTEGER NOT NULL, 
	frame VARCHAR(32) NOT NULL, 
	n_rows INTEGER NOT NULL, 
	columns TEXT NOT NULL, 
	PRIMARY KEY (version_id, frame), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
INSERT INTO "frames" VALUES(1,'results',12,'{"columns": [["section", {"string": "python", "na": "NA"}, "section"], ["board", "int64", "board"], ["ns", {"string": "python", "na": "NA"}, "ns"], ["ew", {"string": "python", "na": "NA"}, "ew"], ["level", "Int8", "level"], ["strain", {"category": ["C", "D", "H", "S", "NT"], "ordered": true, "categories_dtype": {"string": "python", "na": "nan"}}, "strain"], ["doubled", "Int8", "doubled"], ["declarer", {"category": ["N", "E", "S", "W"], "ordered": false, "categories_dtype": {"string": "python", "na": "nan"}}, "declarer"], ["tricks", "Int8", "tricks"], ["lead", {"string": "python", "na": "NA"}, "lead"], ["adjusted", {"string": "python", "na": "NA"}, "adjusted"], ["source", {"string": "python", "na": "NA"}, "source"], ["line", "Int64", "line"], ["score_ns", "Int64", "score_ns"], ["mp_ns", "float64", "mp_ns"], ["mp_ew", "float64", "mp_ew"], ["pct_ns", "float64", "pct_ns"], ["pct_ew", "float64", "pct_ew"], ["top", "float64", "top"], ["mp_factor", "float64", "mp_factor"]], "index": null}');
INSERT INTO "frames" VALUES(1,'boards',4,'{"columns": [["board", "int64", "board"], ["dealer", {"category": ["N", "E", "S", "W"], "ordered": false, "categories_dtype": {"string": "python", "na": "nan"}}, "dealer"], ["vul", {"category": ["None", "NS", "EW", "All"], "ordered": false, "categories_dtype": {"string": "python", "na": "nan"}}, "vul"], ["deal", {"string": "python", "na": "NA"}, "deal"], ["source", {"string": "python", "na": "NA"}, "source"], ["line", "Int64", "line"], ["dd_N_C", "Int8", "dd_N_C"], ["dd_N_D", "Int8", "dd_N_D"], ["dd_N_H", "Int8", "dd_N_H"], ["dd_N_S", "Int8", "dd_N_S"], ["dd_N_NT", "Int8", "dd_N_NT"], ["dd_E_C", "Int8", "dd_E_C"], ["dd_E_D", "Int8", "dd_E_D"], ["dd_E_H", "Int8", "dd_E_H"], ["dd_E_S", "Int8", "dd_E_S"], ["dd_E_NT", "Int8", "dd_E_NT"], ["dd_S_C", "Int8", "dd_S_C"], ["dd_S_D", "Int8", "dd_S_D"], ["dd_S_H", "Int8", "dd_S_H"], ["dd_S_S", "Int8", "dd_S_S"], ["dd_S_NT", "Int8", "dd_S_NT"], ["dd_W_C", "Int8", "dd_W_C"], ["dd_W_D", "Int8", "dd_W_D"], ["dd_W_H", "Int8", "dd_W_H"], ["dd_W_S", "Int8", "dd_W_S"], ["dd_W_NT", "Int8", "dd_W_NT"], ["par_score", "Int64", "par_score"], ["par_contracts", {"string": "python", "na": "NA"}, "par_contracts"]], "index": null}');
INSERT INTO "frames" VALUES(1,'standings',6,'{"columns": [["method", {"string": "python", "na": "nan"}, "method"], ["group", {"string": "python", "na": "NA"}, "grp"], ["rank", {"string": "python", "na": "NA"}, "rank"], ["pair", {"string": "python", "na": "NA"}, "pair"], ["names", {"string": "python", "na": "NA"}, "names"], ["boards", "int64", "boards"], ["total", "float64", "total"], ["pct", "float64", "pct"]], "index": null}');
INSERT INTO "frames" VALUES(1,'names',6,'{"columns": [["section", {"string": "python", "na": "NA"}, "section"], ["pair", {"string": "python", "na": "NA"}, "pair"], ["names", {"string": "python", "na": "NA"}, "names"]], "index": null}');
INSERT INTO "frames" VALUES(2,'results',12,'{"columns": [["section", {"string": "python", "na": "NA"}, "section"], ["board", "int64", "board"], ["ns", {"string": "python", "na": "NA"}, "ns"], ["ew", {"string": "python", "na": "NA"}, "ew"], ["level", "Int8", "level"], ["strain", {"category": ["C", "D", "H", "S", "NT"], "ordered": true, "categories_dtype": {"string": "python", "na": "nan"}}, "strain"], ["doubled", "Int8", "doubled"], ["declarer", {"category": ["N", "E", "S", "W"], "ordered": false, "categories_dtype": {"string": "python", "na": "nan"}}, "declarer"], ["tricks", "Int8", "tricks"], ["lead", {"string": "python", "na": "NA"}, "lead"], ["adjusted", {"string": "python", "na": "NA"}, "adjusted"], ["source", {"string": "python", "na": "NA"}, "source"], ["line", "Int64", "line"], ["score_ns", "Int64", "score_ns"], ["mp_ns", "float64", "mp_ns"], ["mp_ew", "float64", "mp_ew"], ["pct_ns", "float64", "pct_ns"], ["pct_ew", "float64", "pct_ew"], ["top", "float64", "top"], ["mp_factor", "float64", "mp_factor"]], "index": null}');
INSERT INTO "frames" VALUES(2,'boards',4,'{"columns": [["board", "int64", "board"], ["dealer", {"category": ["N", "E", "S", "W"], "ordered": false, "categories_dtype": {"string": "python", "na": "nan"}}, "dealer"], ["vul", {"category": ["None", "NS", "EW", "All"], "ordered": false, "categories_dtype": {"string": "python", "na": "nan"}}, "vul"], ["deal", {"string": "python", "na": "NA"}, "deal"], ["source", {"string": "python", "na": "NA"}, "source"], ["line", "Int64", "line"], ["dd_N_C", "Int8", "dd_N_C"], ["dd_N_D", "Int8", "dd_N_D"], ["dd_N_H", "Int8", "dd_N_H"], ["dd_N_S", "Int8", "dd_N_S"], ["dd_N_NT", "Int8", "dd_N_NT"], ["dd_E_C", "Int8", "dd_E_C"], ["dd_E_D", "Int8", "dd_E_D"], ["dd_E_H", "Int8", "dd_E_H"], ["dd_E_S", "Int8", "dd_E_S"], ["dd_E_NT", "Int8", "dd_E_NT"], ["dd_S_C", "Int8", "dd_S_C"], ["dd_S_D", "Int8", "dd_S_D"], ["dd_S_H", "Int8", "dd_S_H"], ["dd_S_S", "Int8", "dd_S_S"], ["dd_S_NT", "Int8", "dd_S_NT"], ["dd_W_C", "Int8", "dd_W_C"], ["dd_W_D", "Int8", "dd_W_D"], ["dd_W_H", "Int8", "dd_W_H"], ["dd_W_S", "Int8", "dd_W_S"], ["dd_W_NT", "Int8", "dd_W_NT"], ["par_score", "Int64", "par_score"], ["par_contracts", {"string": "python", "na": "NA"}, "par_contracts"]], "index": null}');
INSERT INTO "frames" VALUES(2,'standings',6,'{"columns": [["method", {"string": "python", "na": "nan"}, "method"], ["group", {"string": "python", "na": "NA"}, "grp"], ["rank", {"string": "python", "na": "NA"}, "rank"], ["pair", {"string": "python", "na": "NA"}, "pair"], ["names", {"string": "python", "na": "NA"}, "names"], ["boards", "int64", "boards"], ["total", "float64", "total"], ["pct", "float64", "pct"]], "index": null}');
INSERT INTO "frames" VALUES(2,'names',6,'{"columns": [["section", {"string": "python", "na": "NA"}, "section"], ["pair", {"string": "python", "na": "NA"}, "pair"], ["names", {"string": "python", "na": "NA"}, "names"]], "index": null}');
CREATE TABLE names (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	section TEXT, 
	pair TEXT, 
	direction VARCHAR(4), 
	names TEXT, 
	source TEXT, 
	line TEXT, 
	extra TEXT, 
	PRIMARY KEY (version_id, pos), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
INSERT INTO "names" VALUES(1,0,'','1',NULL,'Cy Smith & Gus Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(1,1,'','2',NULL,'Ed Smith & Ann Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(1,2,'','3',NULL,'Flo Smith & Jo Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(1,3,'','4',NULL,'Ian Smith & Kim Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(1,4,'','5',NULL,'Bob Smith & Di Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(1,5,'','6',NULL,'Hal Smith & Lu Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(2,0,'','1',NULL,'Cy Smith & Gus Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(2,1,'','2',NULL,'Ed Smith & Ann Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(2,2,'','3',NULL,'Flo Smith & Jo Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(2,3,'','4',NULL,'Ian Smith & Kim Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(2,4,'','5',NULL,'Bob Smith & Di Smith',NULL,NULL,NULL);
INSERT INTO "names" VALUES(2,5,'','6',NULL,'Hal Smith & Lu Smith',NULL,NULL,NULL);
CREATE TABLE notes (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	source TEXT, 
	line TEXT, 
	column_name TEXT, 
	value TEXT, 
	message TEXT, 
	extra TEXT, 
	PRIMARY KEY (version_id, pos), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
CREATE TABLE players (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	seat SMALLINT NOT NULL, 
	player_key TEXT NOT NULL, 
	player TEXT NOT NULL, 
	PRIMARY KEY (version_id, pos, seat), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
INSERT INTO "players" VALUES(1,0,0,'hal smith','Hal Smith');
INSERT INTO "players" VALUES(1,0,1,'lu smith','Lu Smith');
INSERT INTO "players" VALUES(1,1,0,'bob smith','Bob Smith');
INSERT INTO "players" VALUES(1,1,1,'di smith','Di Smith');
INSERT INTO "players" VALUES(1,2,0,'ian smith','Ian Smith');
INSERT INTO "players" VALUES(1,2,1,'kim smith','Kim Smith');
INSERT INTO "players" VALUES(1,3,0,'cy smith','Cy Smith');
INSERT INTO "players" VALUES(1,3,1,'gus smith','Gus Smith');
INSERT INTO "players" VALUES(1,4,0,'ed smith','Ed Smith');
INSERT INTO "players" VALUES(1,4,1,'ann smith','Ann Smith');
INSERT INTO "players" VALUES(1,5,0,'flo smith','Flo Smith');
INSERT INTO "players" VALUES(1,5,1,'jo smith','Jo Smith');
INSERT INTO "players" VALUES(2,0,0,'hal smith','Hal Smith');
INSERT INTO "players" VALUES(2,0,1,'lu smith','Lu Smith');
INSERT INTO "players" VALUES(2,1,0,'bob smith','Bob Smith');
INSERT INTO "players" VALUES(2,1,1,'di smith','Di Smith');
INSERT INTO "players" VALUES(2,2,0,'ian smith','Ian Smith');
INSERT INTO "players" VALUES(2,2,1,'kim smith','Kim Smith');
INSERT INTO "players" VALUES(2,3,0,'cy smith','Cy Smith');
INSERT INTO "players" VALUES(2,3,1,'gus smith','Gus Smith');
INSERT INTO "players" VALUES(2,4,0,'ed smith','Ed Smith');
INSERT INTO "players" VALUES(2,4,1,'ann smith','Ann Smith');
INSERT INTO "players" VALUES(2,5,0,'flo smith','Flo Smith');
INSERT INTO "players" VALUES(2,5,1,'jo smith','Jo Smith');
CREATE TABLE results (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	section TEXT, 
	board INTEGER, 
	ns TEXT, 
	ew TEXT, 
	level SMALLINT, 
	strain VARCHAR(2), 
	doubled SMALLINT, 
	declarer VARCHAR(1), 
	tricks SMALLINT, 
	lead TEXT, 
	adjusted TEXT, 
	score_ns INTEGER, 
	source TEXT, 
	line BIGINT, 
	mp_ns FLOAT, 
	mp_ew FLOAT, 
	pct_ns FLOAT, 
	pct_ew FLOAT, 
	top FLOAT, 
	mp_factor FLOAT, 
	ximp_ns FLOAT, 
	ximp_ew FLOAT, 
	ximp_comparisons INTEGER, 
	butler_ns FLOAT, 
	butler_ew FLOAT, 
	datum INTEGER, 
	extra TEXT, 
	PRIMARY KEY (version_id, pos), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
INSERT INTO "results" VALUES(1,0,'',1,'1','4',4,'S',0,'E',9,'C7',NULL,50,'synthetic.csv',2,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,1,'',1,'2','5',4,'S',0,'W',10,'H2',NULL,-420,'synthetic.csv',3,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,2,'',1,'3','6',3,'S',0,'N',8,'SA',NULL,-50,'synthetic.csv',4,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,3,'',2,'1','5',2,'C',0,'E',10,'H2',NULL,-130,'synthetic.csv',5,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,4,'',2,'2','6',1,'NT',0,'N',5,'SA',NULL,-200,'synthetic.csv',6,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,5,'',2,'3','4',3,'H',0,'N',11,'C7',NULL,200,'synthetic.csv',7,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,6,'',3,'1','6',3,'NT',0,'E',10,'DK',NULL,-630,'synthetic.csv',8,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,7,'',3,'2','4',1,'D',0,'S',9,'DK',NULL,110,'synthetic.csv',9,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,8,'',3,'3','5',1,'D',0,'S',5,'H2',NULL,-100,'synthetic.csv',10,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,9,'',4,'1','4',7,'NT',0,'E',12,'DK',NULL,100,'synthetic.csv',11,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,10,'',4,'2','5',4,'C',0,'N',11,NULL,NULL,150,'synthetic.csv',12,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(1,11,'',4,'3','6',2,'C',0,'W',8,'H2',NULL,-90,'synthetic.csv',13,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,0,'',1,'1','4',4,'S',0,'E',9,'SA',NULL,50,'synthetic.csv',2,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,1,'',1,'2','5',4,'S',0,'W',10,'H2',NULL,-420,'synthetic.csv',3,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,2,'',1,'3','6',3,'S',0,'N',8,'SA',NULL,-50,'synthetic.csv',4,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,3,'',2,'1','5',2,'C',0,'E',10,'H2',NULL,-130,'synthetic.csv',5,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,4,'',2,'2','6',1,'NT',0,'N',5,'SA',NULL,-200,'synthetic.csv',6,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,5,'',2,'3','4',3,'H',0,'N',11,'C7',NULL,200,'synthetic.csv',7,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,6,'',3,'1','6',3,'NT',0,'E',10,'DK',NULL,-630,'synthetic.csv',8,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,7,'',3,'2','4',1,'D',0,'S',9,'DK',NULL,110,'synthetic.csv',9,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,8,'',3,'3','5',1,'D',0,'S',5,'H2',NULL,-100,'synthetic.csv',10,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,9,'',4,'1','4',7,'NT',0,'E',12,'DK',NULL,100,'synthetic.csv',11,2.0,2.0,50.0,50.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,10,'',4,'2','5',4,'C',0,'N',11,NULL,NULL,150,'synthetic.csv',12,4.0,0.0,100.0,0.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO "results" VALUES(2,11,'',4,'3','6',2,'C',0,'W',8,'H2',NULL,-90,'synthetic.csv',13,0.0,4.0,0.0,100.0,4.0,1.0,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE sessions (
	session_id VARCHAR(200) NOT NULL, 
	event TEXT NOT NULL, 
	date VARCHAR(32) NOT NULL, 
	site TEXT, 
	latest_version INTEGER, 
	latest_version_id INTEGER, 
	created_at VARCHAR(32) NOT NULL, 
	updated_at VARCHAR(32) NOT NULL, 
	PRIMARY KEY (session_id)
);
INSERT INTO "sessions" VALUES('2026-11-30_monday-pairs','Monday pairs','2026-11-30','Synthetic club',2,2,'2026-12-01T16:22:29+00:00','2026-12-01T16:22:29+00:00');
CREATE TABLE standings (
	version_id INTEGER NOT NULL, 
	pos INTEGER NOT NULL, 
	method VARCHAR(32), 
	grp VARCHAR(16), 
	rank VARCHAR(16), 
	pair TEXT, 
	names TEXT, 
	boards INTEGER, 
	total FLOAT, 
	pct FLOAT, 
	extra TEXT, 
	PRIMARY KEY (version_id, pos), 
	FOREIGN KEY(version_id) REFERENCES versions (version_id)
);
INSERT INTO "standings" VALUES(1,0,'mp','EW','1','6','Hal Smith & Lu Smith',4,14.0,87.5,NULL);
INSERT INTO "standings" VALUES(1,1,'mp','EW','2','5','Bob Smith & Di Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(1,2,'mp','EW','3','4','Ian Smith & Kim Smith',4,2.0,12.5,NULL);
INSERT INTO "standings" VALUES(1,3,'mp','NS','1=','1','Cy Smith & Gus Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(1,4,'mp','NS','1=','2','Ed Smith & Ann Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(1,5,'mp','NS','1=','3','Flo Smith & Jo Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(2,0,'mp','EW','1','6','Hal Smith & Lu Smith',4,14.0,87.5,NULL);
INSERT INTO "standings" VALUES(2,1,'mp','EW','2','5','Bob Smith & Di Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(2,2,'mp','EW','3','4','Ian Smith & Kim Smith',4,2.0,12.5,NULL);
INSERT INTO "standings" VALUES(2,3,'mp','NS','1=','1','Cy Smith & Gus Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(2,4,'mp','NS','1=','2','Ed Smith & Ann Smith',4,8.0,50.0,NULL);
INSERT INTO "standings" VALUES(2,5,'mp','NS','1=','3','Flo Smith & Jo Smith',4,8.0,50.0,NULL);
CREATE TABLE versions (
	version_id INTEGER NOT NULL, 
	session_id VARCHAR(200) NOT NULL, 
	version INTEGER NOT NULL, 
	created_at VARCHAR(32) NOT NULL, 
	content_hash VARCHAR(64) NOT NULL, 
	method VARCHAR(32), 
	conventions TEXT NOT NULL, 
	meta TEXT NOT NULL, 
	numbering VARCHAR(32), 
	movement TEXT, 
	options TEXT, 
	comment TEXT, 
	bridgeproc_version VARCHAR(32), 
	complete BOOLEAN DEFAULT 1 NOT NULL, 
	PRIMARY KEY (version_id), 
	CONSTRAINT uq_versions_session_version UNIQUE (session_id, version), 
	FOREIGN KEY(session_id) REFERENCES sessions (session_id)
);
INSERT INTO "versions" VALUES(1,'2026-11-30_monday-pairs',1,'2026-12-01T16:22:29+00:00','90538a0e636fc58867465f792785ff7afc5644d12189182d895e32d49c9665f2','mp','{"across_field": false, "adjusted_mode": "fixed", "ave": 50.0, "ave_minus": 40.0, "ave_plus": 60.0, "centred": false, "cross_imp": "sum", "datum_drop": 1, "datum_drop_share": null, "expected": null, "factoring": "neuberg", "imp_ave_plus": 3.0, "imp_per_board": false, "method": "mp", "mp_decimals": null, "mp_scale": 2, "mp_top": "full", "pair_numbering": "shared", "sitout": "none", "winners": "auto"}','{"date": "2026-11-30", "event": "Monday pairs", "site": "Synthetic club"}','shared','Movement: 3 tables, 4 boards (synthetic)','{"archive": false, "archive_as": {}, "archive_url": null, "check_scores": true, "conventions": null, "corrections": null, "dd": true, "encoding": null, "meta": {}, "meta_defaults": {}, "movement_check": true, "names": [], "overrides": {}, "pair_numbering": "auto", "replace": false, "result_style": "auto", "tables": null, "trust": "contract"}',NULL,'0.1.0',1);
INSERT INTO "versions" VALUES(2,'2026-11-30_monday-pairs',2,'2026-12-01T16:22:29+00:00','835516593309a4ecbdfdd770ef90333e349c0f2966f3e3f678ae4c484c53d21f','mp','{"across_field": false, "adjusted_mode": "fixed", "ave": 50.0, "ave_minus": 40.0, "ave_plus": 60.0, "centred": false, "cross_imp": "sum", "datum_drop": 1, "datum_drop_share": null, "expected": null, "factoring": "neuberg", "imp_ave_plus": 3.0, "imp_per_board": false, "method": "mp", "mp_decimals": null, "mp_scale": 2, "mp_top": "full", "pair_numbering": "shared", "sitout": "none", "winners": "auto"}','{"date": "2026-11-30", "event": "Monday pairs", "site": "Synthetic club"}','shared','Movement: 3 tables, 4 boards (synthetic)','{"archive": false, "archive_as": {}, "archive_url": null, "check_scores": true, "conventions": null, "corrections": null, "dd": true, "encoding": null, "meta": {}, "meta_defaults": {}, "movement_check": true, "names": [], "overrides": {}, "pair_numbering": "auto", "replace": false, "result_style": "auto", "tables": null, "trust": "contract"}','board 1 lead','0.1.0',1);
CREATE INDEX ix_sessions_latest ON sessions (latest_version_id);
CREATE INDEX ix_sessions_date ON sessions (date, event);
CREATE INDEX ix_players_key ON players (player_key, version_id);
COMMIT;
