"""Traveller and names sheets: the delimiter sniffer skips quoted cells."""
from bridgeproc.io.sheets.names import parse_names_csv, read_names
from bridgeproc.io.sheets.travellers import parse_travellers_csv, sniff_delimiter

NAMES = 'Pair;Names\n1;"Smith, Ann & Lee, Bo"\n2;"Jones, Cy & Park, Di"\n3;Brown & Green\n'


def test_semicolon_names_list_with_commas_in_quoted_names(tmp_path):
    assert sniff_delimiter(NAMES.splitlines()) == ";"
    frame = parse_names_csv(NAMES, "names.csv")
    assert frame["pair"].tolist() == ["1", "2", "3"]
    assert frame["names"].tolist() == ["Smith, Ann & Lee, Bo", "Jones, Cy & Park, Di", "Brown & Green"]
    path = tmp_path / "names.csv"
    path.write_text(NAMES, encoding="utf-8")
    assert read_names(path)["names"].tolist() == frame["names"].tolist()


def test_quoted_cells_do_not_outvote_the_real_delimiter_in_travellers():
    # 16 semicolons against 18 commas, all of them inside the quoted comments
    text = ('Board;NS;EW;Contract;Comment\n'
            '1;1;2;4SN=;"late, slow, claimed, ok, after, all, done"\n'
            '1;3;4;3NTS-1;"a ""quoted"", note, here, with, more, commas"\n'
            '2;1;2;2HE+1;"one, two, three, four, five, six, seven"\n')
    frame = parse_travellers_csv(text, "t.csv")
    assert frame["board"].tolist() == ["1", "1", "2"]
    assert frame["contract"].tolist() == ["4SN=", "3NTS-1", "2HE+1"]


def test_sniffer_still_counts_every_unquoted_delimiter():
    assert sniff_delimiter(["Board,NS,EW,Contract", '1,2,3,"4S; doubled"']) == ","
    assert sniff_delimiter(["Board\tNS\tEW", '1\t"a,b,c"\t2']) == "\t"
    assert sniff_delimiter(['x,"unclosed; y; z']) == ","
    assert sniff_delimiter(["no delimiter at all"]) == ","
