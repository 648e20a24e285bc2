"""The round-3 hostile-input catalogue (issue 29): each class of hostile input, and the tests that show it
is handled. Each test named here was read and checks the behaviour, not just mentions it. A named test that
disappears or is renamed fails this module, so the catalogue does not slowly go out of date."""
from __future__ import annotations

import importlib

#: Each class of the catalogue, and the tests that show it is handled (``path::function``; a parametrized
#: test by its function's name).
CATALOGUE: dict[str, list[str]] = {
    "1 formulas in every data CSV": [
        "tests/report/test_csv_formulas.py::test_a_formula_start_is_written_as_text",
        "tests/report/test_csv_formulas.py::test_numbers_and_plain_text_are_left_as_they_are",
        "tests/report/test_csv_formulas.py::test_no_cell_of_any_text_column_is_live",
        "tests/report/test_csv_formulas.py::test_every_csv_of_a_hostile_evening_holds_no_live_formula",
        "tests/report/test_csv_formulas.py::test_a_carriage_return_in_a_cell_is_quoted_so_the_row_stays_one_row",
        "tests/test_architecture.py::test_every_data_csv_is_written_by_the_one_csv_writer",
        "tests/report/test_sim_columns.py::test_csv_lines_keep_negative_zero_guard_formulas_and_quote",
        "tests/report/test_check_report.py::test_formula_looking_text_stays_text",
    ],
    "2 workbook guards read the package as a parser does, and bound it": [
        "tests/io/test_xlsx_hostile.py::test_a_broken_workbook_is_a_parse_error_naming_the_file",
        "tests/io/test_xlsx_hostile.py::test_a_styles_part_of_200000_fonts_is_refused_before_loading",
        "tests/io/test_xlsx_hostile.py::test_every_bound_counts_the_whole_package",
    ],
    "3 config masks the archive password": [
        "tests/cli/test_cli_config.py::test_config_never_prints_a_database_password",
    ],
    "4 outputs published as one set under kill -9": [
        "tests/archive/test_publish_journal.py::test_a_kill_at_any_rename_is_finished_by_the_next_command",
        "tests/archive/test_publish_journal.py::test_a_journal_of_a_run_still_going_is_left_alone",
        "tests/archive/test_publish_journal.py::test_a_journal_that_cannot_be_read_is_said_and_kept",
        "tests/archive/test_teams_crash.py::test_a_teams_run_killed_mid_publish_is_finished_by_the_next_command",
        "tests/archive/test_teams_crash.py::test_an_event_killed_mid_publish_is_finished_by_the_next_command",
    ],
    "5 the club's files in the results folder are kept": [
        "tests/report/test_website.py::test_the_clubs_own_files_in_the_results_folder_are_kept",
        "tests/report/test_website.py::test_a_folder_of_an_older_bridgeproc_keeps_all_but_its_pages",
    ],
    "6 an output through a symlink is written through it": [
        "tests/pipeline/test_publish.py::test_an_output_that_is_a_symlink_is_written_where_it_points",
    ],
    "7 another program's database is refused, unchanged": [
        "tests/archive/test_foreign_database.py::test_another_programs_database_is_refused_and_left_as_it_was",
        "tests/archive/test_foreign_database.py::test_another_programs_postgresql_database_is_refused_and_gets_no_table",
    ],
    "8 a reader who cannot write the folder is told of a stale WAL": [
        "tests/archive/test_archive_stale_wal.py::test_an_unapplied_wal_a_reader_cannot_read_is_said_not_hidden",
    ],
    "9 invisible characters in identities removed with a note": [
        "tests/validate/test_invisible.py::test_pair_3_with_an_invisible_mark_is_pair_3_with_a_note",
        "tests/validate/test_invisible.py::test_the_same_pair_twice_on_a_board_is_then_found",
        "tests/validate/test_invisible.py::test_an_invisible_mark_in_a_result_cell_is_taken_out_too",
    ],
    "10 control characters in a lead keep USEBIO readable": [
        "tests/report/test_usebio_control_characters.py::test_a_bell_in_a_lead_is_shown_as_the_replacement_character",
    ],
    "11 USEBIO of an unknown declared encoding read as UTF-8 with a note": [
        "tests/io/test_usebio_encodings.py::test_the_name_is_read_as_written_and_a_guess_is_noted",
    ],
    "12 teams adjustments that cannot be right are refused": [
        "tests/teams/test_teams_load.py::test_adjustments_that_cannot_be_right_are_refused_all_at_once",
        "tests/teams/test_teams_matches.py::test_a_vp_penalty_on_the_total_for_a_team_that_plays_no_match_is_refused",
        "tests/teams/test_teams_matches.py::test_adjustment_for_a_team_without_that_match",
    ],
    "13 resources bounded": [
        "tests/io/test_xlsx_hostile.py::test_leads_sharing_one_long_string_are_refused_with_their_cells",
        "tests/io/test_xlsx_hostile.py::test_a_csv_lead_too_long_is_refused_the_same_way",
        "tests/io/test_xlsx_hostile.py::test_the_text_of_all_cells_is_bounded_too",
        "tests/io/test_xlsx_hostile.py::test_a_too_large_traveller_csv_is_not_read_again_as_a_names_list",
        "tests/io/test_xlsx_hostile.py::test_too_much_unpacked_is_refused_before_loading",
        "tests/io/test_usebio_hostile.py::test_hostile_usebio_has_an_exact_outcome",  # two-million-empty-elements
        "tests/io/test_usebio_hostile.py::test_the_element_bound_holds_while_parsing_too",
        "tests/pipeline/test_read_workbook_once.py::test_traveller_workbook_with_names_sheet_is_loaded_once",
        "tests/pipeline/test_read_workbook_once.py::test_names_only_workbook_is_loaded_once",
        "tests/pipeline/test_read_workbook_once.py::test_a_workbook_with_formulas_is_loaded_for_them_too",
        "tests/io/test_bounded_reads.py::test_a_device_as_a_side_file_is_refused",
        "tests/io/test_bounded_reads.py::test_a_device_as_the_configuration_file_is_refused",
        "tests/io/test_bounded_reads.py::test_a_named_pipe_as_an_input_is_refused_not_waited_on",
        "tests/io/test_bounded_reads.py::test_a_file_over_the_bound_is_refused_and_one_within_is_read",
    ],
    "14 no traceback": [
        "tests/cli/test_cli_hostile.py::test_a_number_too_large_for_any_option_is_a_usage_error",
        "tests/cli/test_cli_tracebacks.py::test_a_configuration_file_nested_too_deeply",
        "tests/cli/test_cli_tracebacks.py::test_a_corrections_file_nested_too_deeply",
        "tests/cli/test_cli_config.py::test_an_unreadable_user_configuration_folder_is_one_line_not_a_traceback",
        "tests/cli/test_cli_tracebacks.py::test_an_archive_whose_schema_version_is_not_a_number",
        "tests/teams/test_teams_load.py::test_a_teams_side_file_cell_past_the_csv_field_limit_is_read_not_a_traceback",
        "tests/cli/test_cli_tracebacks.py::test_a_name_holding_a_character_xml_cannot_hold_is_written_everywhere",
    ],
    "15 300-character section names make a website": [
        "tests/report/test_website_long_names.py::test_a_long_slug_is_cut_and_two_long_names_stay_apart",
        "tests/report/test_website_long_names.py::test_the_website_of_a_section_with_a_300_character_name",
    ],
    "16 first-catalogue leftovers": [
        "tests/report/test_text_safety.py::test_text_over_a_cell_is_cut_with_a_mark",  # 40,000 characters
        "tests/io/test_bounded_reads.py::test_a_megabyte_header_line_is_answered_in_a_few_hundred_characters",
        "tests/validate/test_checks.py::test_a_board_without_its_deal_is_one_note_at_the_game_not_a_problem_per_result",
        "tests/io/test_names_hostile.py::test_a_names_list_in_an_encoding_it_does_not_fit_names_the_line",
        "tests/cli/test_cli_hostile.py::test_an_existing_folder_named_like_a_file_output_is_a_usage_error",
        "tests/archive/test_archive_created_at_once.py::test_eight_processes_making_one_new_archive_at_once_all_succeed",
        "tests/archive/test_archive_created_at_once.py::test_a_locked_journal_mode_switch_is_tried_again",
        "tests/archive/test_concurrent_writers.py::test_ten_writers_on_sqlite",
        "tests/archive/test_concurrent_writers.py::test_ten_writers_on_postgresql",
    ],
}

#: Parts of a class no test shows yet, and why.
MISSING: dict[str, str] = {}


def _function(node: str):
    path, name = node.split("::")
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    return getattr(module, name, None)


def test_every_class_has_a_test():
    """All 16 classes are listed, each with at least one test."""
    assert [label for label, nodes in CATALOGUE.items() if not nodes] == []
    assert len(CATALOGUE) == 16


def test_every_named_test_exists():
    """Each node id is a test function of its module (a renamed or removed test fails here)."""
    gone = [node for nodes in CATALOGUE.values() for node in nodes
            if not callable(_function(node)) or not node.split("::")[1].startswith("test")]
    assert gone == []


def test_the_catalogue_counts():
    """No test is named twice, and none is dropped without this number changing."""
    nodes = [node for nodes in CATALOGUE.values() for node in nodes]
    assert len(nodes) == len(set(nodes))  # each test named under one class
    assert len(set(nodes)) >= 62
